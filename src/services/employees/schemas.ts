import { type TSchema, Type } from '@sinclair/typebox';

export const maxId = 2_147_483_647;

export const Employee = Type.Object(
  {
    id: Type.Integer({ minimum: 1, examples: [25] }),
    name: Type.String({ examples: ['Tiger Nixon'] }),
    age: Type.Integer({ minimum: 0, maximum: 150, examples: [61] }),
    image: Type.Union([Type.String(), Type.Null()], { examples: [null] }),
  },
  { title: 'Employee' },
);

const name = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '\\S',
  description: 'Not empty; at most 255 characters.',
});
const age = Type.Union(
  [
    Type.Integer({ minimum: 0, maximum: 150 }),
    // A string of digits whose value is 0–150 (leading zeros allowed), as the public API accepts "61".
    Type.String({ pattern: '^0*([0-9]{1,2}|1[0-4][0-9]|150)$' }),
  ],
  {
    description:
      'An integer from 0 to 150, or a string of digits with such a value; always returned as an integer.',
  },
);
const image = Type.Union([Type.String(), Type.Null()], {
  description: 'An image URL; "" and null are stored and returned as null.',
});

export const CreateEmployeeBody = Type.Object(
  {
    id: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: maxId,
        description: 'Optional: create the record with this id (409 if it exists).',
      }),
    ),
    name,
    age,
    image: Type.Optional(image),
  },
  { description: 'Other properties are ignored.' },
);

export const ReplaceEmployeeBody = Type.Object(
  {
    id: Type.Optional(
      Type.Integer({ description: 'Ignored when it matches the id in the path; 400 otherwise.' }),
    ),
    name,
    age,
    image,
  },
  { description: 'The whole record: name, age and image are all required. Other properties are ignored.' },
);

export const IdParams = Type.Object({
  id: Type.String({ description: 'A positive integer; anything else is 404.', examples: ['1'] }),
});

const envelope = <T extends TSchema>(data: T, message: string) =>
  Type.Object({
    status: Type.Literal('success'),
    data,
    message: Type.String({ examples: [message] }),
  });

export const EmployeeListReply = envelope(
  Type.Array(Employee),
  'Successfully! All records has been fetched.',
);
export const EmployeeReply = envelope(Employee, 'Successfully! Record has been fetched.');
export const DeletedReply = envelope(
  Type.String({ examples: ['25'] }),
  'Successfully! Record has been deleted',
);

export const ErrorReply = Type.Object(
  {
    status: Type.Literal('error'),
    data: Type.Null(),
    message: Type.String({ examples: ['Not found! No record with id 99'] }),
  },
  { title: 'Error' },
);

/** Every error status a route can answer, in the envelope. */
export const errorReplies = (...statuses: number[]): Record<number, typeof ErrorReply> =>
  Object.fromEntries(statuses.map((status) => [status, ErrorReply]));
