import { Type } from '@sinclair/typebox';
import { argsOf, contextArg, idArg, itemSchema } from '../../route-spec.js';
import { ItemQuery, UserDeleteArgs, UserListQuery, UserSchema } from '../../schemas.js';
import { type Call, defineResource, type Endpoint, type Resource } from '../contract.js';
import {
  checkCreate,
  checkDelete,
  checkIntrospect,
  checkList,
  checkRead,
  checkRestore,
  checkUpdate,
  passwordsCheck,
} from './access.js';
import {
  createAppPassword,
  deleteAppPassword,
  deleteAppPasswords,
  introspectAppPassword,
  listAppPasswords,
  readAppPassword,
  renameAppPassword,
} from './app-passwords.js';
import {
  checkDeleteParams,
  checkNewUserParams,
  checkUserParams,
  deleteParams,
  publishedFilter,
  type UserBody,
} from './params.js';
import {
  AppPasswordBody,
  AppPasswordCreateBody,
  AppPasswordDeleted,
  AppPasswordSchema,
  AppPasswordsDeleted,
  UserDeleted,
  UserWriteBody,
} from './schemas.js';
import {
  createUser,
  currentUser,
  deleteUser,
  listUsers,
  readUser,
  restoreUser,
  updateUser,
} from './users.js';

const reassignArg = {
  type: 'integer',
  description: 'The user id that takes over the deleted user’s posts, or false to delete them too.',
  required: false,
};
const userIdArg = {
  user_id: { description: 'Unique identifier for the user, or me.', type: 'string', required: true },
};
const uuidArg = {
  uuid: { description: 'A UUID for the application password.', type: 'string', required: true },
};

/** Update (POST, PUT, PATCH) and delete of one user, `/users/{id}` or the caller's `/users/me`. */
function itemWrites(summary: { update: string; remove: string }, ids: Record<string, unknown>): Endpoint[] {
  return [
    {
      methods: ['POST', 'PUT', 'PATCH'],
      summary: summary.update,
      body: UserWriteBody,
      response: UserSchema,
      args: { ...ids, ...argsOf(UserWriteBody) },
      validate: (call: Call) => checkUserParams(call.body as UserBody),
      check: checkUpdate,
      handle: updateUser,
    },
    {
      methods: ['DELETE'],
      summary: summary.remove,
      querystring: UserDeleteArgs,
      body: UserDeleteArgs,
      response: UserDeleted,
      args: { ...ids, ...argsOf(UserDeleteArgs), reassign: reassignArg },
      validate: (call: Call) => {
        const { force, reassign } = deleteParams(call.body, call.query);
        checkDeleteParams(force, reassign);
      },
      check: checkDelete,
      handle: deleteUser,
    },
  ];
}

/** WP_REST_Users_Controller: the list, creation, `/users/me`, one user, and backlot's trash with its restore. */
const usersResource = defineResource({
  name: 'users',
  schema: itemSchema('user', UserSchema),
  routes: [
    {
      path: '/wp/v2/users',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'List users (everyone for administrators; authors of published posts otherwise)',
          querystring: UserListQuery,
          response: Type.Array(UserSchema),
          args: argsOf(UserListQuery),
          validate: (call) => void publishedFilter(call.query.has_published_posts as string[] | undefined),
          check: checkList,
          handle: listUsers,
        },
        {
          methods: ['POST'],
          summary: 'Create a user (administrators): username, email and password are required',
          body: UserWriteBody,
          response: UserSchema,
          status: 201,
          args: argsOf(UserWriteBody, ['username', 'email', 'password']),
          validate: (call) => checkNewUserParams(call.body as UserBody),
          check: checkCreate,
          handle: createUser,
        },
      ],
    },
    {
      path: '/wp/v2/users/me',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'The logged-in user',
          querystring: ItemQuery,
          response: UserSchema,
          args: argsOf(ItemQuery),
          // Core's `__return_true`: the answer itself says when nobody is logged in.
          check: () => {},
          handle: currentUser,
        },
        ...itemWrites(
          {
            update: 'Update the logged-in user',
            remove: 'Trash the logged-in user, or delete them for good (as /users/{id})',
          },
          {},
        ),
      ],
    },
    {
      path: '/wp/v2/users/(?P<id>[\\d]+)',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'Read a user',
          querystring: ItemQuery,
          response: UserSchema,
          args: { ...idArg, ...argsOf(ItemQuery) },
          check: checkRead,
          handle: readUser,
        },
        ...itemWrites(
          {
            update: 'Update a user: yourself, or anyone for administrators; roles need promote_users',
            remove: 'Trash a user, or delete for good with force=true; reassign moves their posts first',
          },
          idArg,
        ),
      ],
    },
    {
      path: '/wp/v2/users/(?P<id>[\\d]+)/restore',
      schema: false,
      endpoints: [
        {
          methods: ['POST'],
          summary: 'Bring a trashed user back (administrators)',
          response: UserSchema,
          args: idArg,
          check: checkRestore,
          handle: restoreUser,
        },
      ],
    },
  ],
});

const passwords = '/wp/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords';

/** WP_REST_Application_Passwords_Controller: a user's (or the caller's, `me`) application passwords. */
const appPasswordsResource = defineResource({
  name: 'application-passwords',
  openapiTag: 'application passwords',
  schema: itemSchema('application-password', AppPasswordSchema),
  routes: [
    {
      path: passwords,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'List application passwords',
          response: Type.Array(AppPasswordSchema),
          args: { ...userIdArg, ...contextArg },
          check: passwordsCheck(
            'rest_cannot_list_application_passwords',
            'Sorry, you are not allowed to list application passwords for this user.',
          ),
          handle: listAppPasswords,
        },
        {
          methods: ['POST'],
          summary: 'Create an application password: answered once, stored as a hash',
          body: AppPasswordCreateBody,
          response: AppPasswordSchema,
          status: 201,
          args: { ...userIdArg, ...argsOf(AppPasswordCreateBody) },
          check: passwordsCheck(
            'rest_cannot_create_application_passwords',
            'Sorry, you are not allowed to create application passwords for this user.',
          ),
          handle: createAppPassword,
        },
        {
          methods: ['DELETE'],
          summary: 'Delete all of the user’s application passwords',
          response: AppPasswordsDeleted,
          args: userIdArg,
          check: passwordsCheck(
            'rest_cannot_delete_application_passwords',
            'Sorry, you are not allowed to delete application passwords for this user.',
          ),
          handle: deleteAppPasswords,
        },
      ],
    },
    {
      path: `${passwords}/introspect`,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'The application password this request authenticated with',
          response: AppPasswordSchema,
          args: { ...userIdArg, ...contextArg },
          check: checkIntrospect,
          handle: introspectAppPassword,
        },
      ],
    },
    {
      path: `${passwords}/(?P<uuid>[\\w\\-]+)`,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'Read one application password',
          response: AppPasswordSchema,
          args: { ...userIdArg, ...uuidArg, ...contextArg },
          check: passwordsCheck(
            'rest_cannot_read_application_password',
            'Sorry, you are not allowed to read this application password.',
          ),
          handle: readAppPassword,
        },
        {
          methods: ['POST', 'PUT', 'PATCH'],
          summary: 'Rename an application password',
          body: AppPasswordBody,
          response: AppPasswordSchema,
          args: { ...userIdArg, ...uuidArg, ...argsOf(AppPasswordBody) },
          check: passwordsCheck(
            'rest_cannot_edit_application_password',
            'Sorry, you are not allowed to edit this application password.',
          ),
          handle: renameAppPassword,
        },
        {
          methods: ['DELETE'],
          summary: 'Delete one application password',
          response: AppPasswordDeleted,
          args: { ...userIdArg, ...uuidArg },
          check: passwordsCheck(
            'rest_cannot_delete_application_password',
            'Sorry, you are not allowed to delete this application password.',
          ),
          handle: deleteAppPassword,
        },
      ],
    },
  ],
});

/** Users and their application passwords, in the order the index lists them. */
export const userResources: readonly Resource[] = [usersResource, appPasswordsResource];
