/** Word lists the dataset is built from; changing any of them changes every generated body (and the golden hash). */

export const lorem = (
  'a ab accusamus accusantium ad adipisci alias aliquam aliquid amet animi aperiam architecto asperiores ' +
  'aspernatur assumenda at atque aut autem beatae blanditiis commodi consectetur consequatur consequuntur ' +
  'corporis corrupti culpa cum cumque cupiditate debitis delectus deleniti deserunt dicta dignissimos ' +
  'distinctio dolor dolore dolorem doloremque dolores doloribus dolorum ducimus ea eaque earum eius eligendi ' +
  'enim eos error esse est et eum eveniet ex excepturi exercitationem expedita explicabo facere facilis fuga ' +
  'fugiat fugit harum hic id illo illum impedit in incidunt inventore ipsa ipsam ipsum iste itaque iure iusto ' +
  'labore laboriosam laborum laudantium libero magnam magni maiores maxime minima minus modi molestiae ' +
  'molestias mollitia nam natus necessitatibus nemo neque nesciunt nihil nisi nobis non nostrum nulla numquam ' +
  'obcaecati odio odit officia officiis omnis optio pariatur perferendis perspiciatis placeat porro possimus ' +
  'praesentium provident quae quaerat quam quas quasi qui quia quibusdam quidem quis quisquam quo quod quos ' +
  'ratione recusandae reiciendis rem repellat repellendus reprehenderit repudiandae rerum saepe sapiente sed ' +
  'sequi similique sint sit soluta sunt suscipit tempora tempore temporibus tenetur totam ullam unde ut vel ' +
  'velit veniam veritatis vero vitae voluptas voluptate voluptatem voluptates voluptatibus voluptatum'
).split(' ');

export const firstNames = [
  'Adele',
  'Bernard',
  'Celestine',
  'Dorian',
  'Elsie',
  'Florian',
  'Greta',
  'Horace',
  'Ida',
  'Jasper',
  'Karina',
  'Leopold',
  'Mabel',
  'Norris',
  'Ophelia',
  'Percival',
  'Rosalind',
  'Sylvester',
  'Theodora',
  'Ulric',
];

export const lastNames = [
  'Abernathy',
  'Bashirian',
  'Carroll',
  'Dietrich',
  'Ernser',
  'Feeney',
  'Gulgowski',
  'Hackett',
  'Ivory',
  'Jaskolski',
  'Kuhlman',
  'Lindgren',
  'Monahan',
  'Nolan',
  'Okuneva',
  'Pouros',
  'Quigley',
  'Runolfsdottir',
];

export const streetNames = [
  'Acorn',
  'Birch',
  'Cedar',
  'Dogwood',
  'Elm',
  'Fern',
  'Glen',
  'Harbor',
  'Ivy',
  'Juniper',
  'Kestrel',
  'Larch',
];

export const streetSuffixes = ['Avenue', 'Court', 'Drive', 'Lane', 'Parkway', 'Road', 'Street', 'Way'];

export const cities = [
  'Aldenport',
  'Brookhaven',
  'Clearwater',
  'Dunmore',
  'Eastfield',
  'Fairhaven',
  'Glenrock',
  'Hollowell',
  'Irondale',
  'Juniper Falls',
  'Kingsbridge',
  'Lakemont',
];

export const domains = ['biz', 'com', 'info', 'io', 'me', 'name', 'net', 'org', 'tv'];

export const companySuffixes = ['Group', 'Inc', 'LLC', 'and Sons', 'Partners'];

export const catchPhraseWords = [
  ['Adaptive', 'Balanced', 'Centralized', 'Distributed', 'Ergonomic', 'Focused', 'Grounded', 'Horizontal'],
  ['asynchronous', 'bi-directional', 'client-server', 'dynamic', 'fault-tolerant', 'heuristic', 'modular'],
  ['architecture', 'capability', 'framework', 'groupware', 'interface', 'middleware', 'paradigm', 'toolset'],
];

export const bsWords = [
  ['aggregate', 'deploy', 'engineer', 'harness', 'integrate', 'orchestrate', 'reinvent', 'synergize'],
  ['cross-platform', 'end-to-end', 'granular', 'real-time', 'scalable', 'seamless', 'turn-key', 'viral'],
  ['channels', 'e-markets', 'infrastructures', 'metrics', 'platforms', 'supply-chains', 'systems', 'users'],
];
