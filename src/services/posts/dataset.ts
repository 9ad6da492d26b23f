import * as words from './words.js';

export interface Post {
  userId: number;
  id: number;
  title: string;
  body: string;
}
export interface Comment {
  postId: number;
  id: number;
  name: string;
  email: string;
  body: string;
}
export interface Album {
  userId: number;
  id: number;
  title: string;
}
export interface Photo {
  albumId: number;
  id: number;
  title: string;
  url: string;
  thumbnailUrl: string;
}
export interface Todo {
  userId: number;
  id: number;
  title: string;
  completed: boolean;
}
export interface User {
  id: number;
  name: string;
  username: string;
  email: string;
  address: {
    street: string;
    suite: string;
    city: string;
    zipcode: string;
    geo: { lat: string; lng: string };
  };
  phone: string;
  website: string;
  company: { name: string; catchPhrase: string; bs: string };
}

export interface Dataset {
  posts: Post[];
  comments: Comment[];
  albums: Album[];
  photos: Photo[];
  todos: Todo[];
  users: User[];
}

export type ResourceName = keyof Dataset;
export type Item = Dataset[ResourceName][number];

/** In the order the home page and `/db` list them (the public API's order). */
export const resourceNames: ResourceName[] = ['posts', 'comments', 'albums', 'photos', 'todos', 'users'];

/** `posts` -> `post`: the foreign-key prefix (`postId`) and the `_expand` name. */
export const singularOf: Record<ResourceName, string> = {
  posts: 'post',
  comments: 'comment',
  albums: 'album',
  photos: 'photo',
  todos: 'todo',
  users: 'user',
};

export const imageSizes = { full: 600, thumbnail: 150 } as const;

/** Where a placeholder image is served, relative to the service's origin. */
export const imagePath = (size: number, color: string) => `/images/${size}/${color}.png`;

/**
 * mulberry32: a tiny 32-bit PRNG. Only integer arithmetic, so every machine and Node version
 * produces the same sequence, which is what makes the dataset byte-identical everywhere.
 */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const int = (min: number, max: number) => min + (next() % (max - min + 1));
  const pick = <T>(list: readonly T[]) => list[next() % list.length] as T;
  return { next, int, pick };
}

type Random = ReturnType<typeof prng>;

const phrase = (random: Random, min: number, max: number) =>
  Array.from({ length: random.int(min, max) }, () => random.pick(words.lorem)).join(' ');

/** A body of a few lines, separated by `\n` as in the public API. */
const paragraph = (random: Random, lines: number) =>
  Array.from({ length: lines }, () => phrase(random, 6, 11)).join('\n');

const digits = (random: Random, count: number) =>
  Array.from({ length: count }, () => random.int(0, 9)).join('');

const coordinate = (random: Random, limit: number) => {
  const tenThousandths = random.int(0, limit * 20000) - limit * 10000;
  return (tenThousandths / 10000).toFixed(4);
};

function buildUsers(random: Random): User[] {
  return Array.from({ length: 10 }, (_, index) => {
    const id = index + 1;
    const first = words.firstNames[index * 2] as string;
    const last = random.pick(words.lastNames);
    const website = `${first.toLowerCase()}.${random.pick(words.domains)}`;
    return {
      id,
      name: `${first} ${last}`,
      username: `${first}${index % 3 === 0 ? '.' : '_'}${last}`.slice(0, 16),
      email: `${first}@${last.toLowerCase()}.${random.pick(words.domains)}`,
      address: {
        street: `${random.pick(words.streetNames)} ${random.pick(words.streetSuffixes)}`,
        suite: `${random.int(0, 1) ? 'Apt.' : 'Suite'} ${random.int(100, 999)}`,
        city: random.pick(words.cities),
        zipcode: `${digits(random, 5)}-${digits(random, 4)}`,
        geo: { lat: coordinate(random, 90), lng: coordinate(random, 180) },
      },
      phone: `1-${digits(random, 3)}-${digits(random, 3)}-${digits(random, 4)} x${digits(random, 5)}`,
      website,
      company: {
        name: `${last} ${random.pick(words.companySuffixes)}`,
        catchPhrase: words.catchPhraseWords.map((list) => random.pick(list)).join(' '),
        bs: words.bsWords.map((list) => random.pick(list)).join(' '),
      },
    };
  });
}

/** The fixed dataset: same sequence of draws, same bytes, on every machine and every start. */
export function buildDataset(): Dataset {
  const random = prng(0x6a736f6e);
  const users = buildUsers(random);
  const posts = Array.from({ length: 100 }, (_, index): Post => {
    const id = index + 1;
    return { userId: Math.ceil(id / 10), id, title: phrase(random, 3, 9), body: paragraph(random, 4) };
  });
  const comments = Array.from({ length: 500 }, (_, index): Comment => {
    const id = index + 1;
    const first = random.pick(words.firstNames);
    const last = random.pick(words.lastNames).toLowerCase();
    return {
      postId: Math.ceil(id / 5),
      id,
      name: phrase(random, 3, 7),
      email: `${first}_${last}@${random.pick(words.lorem)}.${random.pick(words.domains)}`,
      body: paragraph(random, random.int(3, 4)),
    };
  });
  const albums = Array.from({ length: 100 }, (_, index): Album => {
    const id = index + 1;
    return { userId: Math.ceil(id / 10), id, title: phrase(random, 2, 7) };
  });
  const photos = Array.from({ length: 5000 }, (_, index): Photo => {
    const id = index + 1;
    const color = (random.next() & 0xffffff).toString(16).padStart(6, '0');
    return {
      albumId: Math.ceil(id / 50),
      id,
      title: phrase(random, 3, 8),
      url: imagePath(imageSizes.full, color),
      thumbnailUrl: imagePath(imageSizes.thumbnail, color),
    };
  });
  const todos = Array.from({ length: 200 }, (_, index): Todo => {
    const id = index + 1;
    return { userId: Math.ceil(id / 20), id, title: phrase(random, 2, 8), completed: random.int(0, 1) === 1 };
  });
  // Key order is /db's order, JSONPlaceholder's: users before todos (the home page lists todos first).
  return { posts, comments, albums, photos, users, todos };
}

/** The same photos with absolute image URLs on `origin` (e.g. `http://localhost:8083`). */
export const photosAt = (photos: Photo[], origin: string): Photo[] =>
  photos.map((photo) => ({ ...photo, url: origin + photo.url, thumbnailUrl: origin + photo.thumbnailUrl }));
