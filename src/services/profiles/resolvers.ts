import type { Readable } from 'node:stream';
import { GraphQLUpload } from 'graphql-upload-minimal';
import type { IResolvers, MercuriusContext } from 'mercurius';
import type { ObjectStore } from '../../platform/objects.js';
import type { ProfilesSettings } from './settings.js';
import type { UserStore } from './store.js';
import { checkImage, safeFileName, UploadRefused } from './upload.js';

/** What graphql-upload-minimal resolves an `Upload` variable to. */
interface FileUpload {
  filename: string;
  mimetype: string;
  createReadStream(): Readable;
}

export interface ResolverContext {
  /** `http(s)://host[:port]` of the request, for URLs of files the service serves itself. */
  baseUrl: string;
}

/** The cause after an error prefix: the message, plus the HTTP status when a remote store answered with one. */
export function causeOf(error: unknown) {
  const err = error as { message?: string; name?: string; $metadata?: { httpStatusCode?: number } };
  const message = err?.message || err?.name || String(error);
  const status = err?.$metadata?.httpStatusCode;
  return status && !message.includes(String(status)) ? `${message} (HTTP ${status})` : message;
}

/** Statuses from the multipart parser that describe the request (400 malformed, 413 too large). */
const requestStatus = (error: unknown) => {
  const status = (error as { statusCode?: number }).statusCode;
  return status === 400 || status === 413 ? status : 200;
};

export function createResolvers(deps: {
  users: UserStore;
  objects: ObjectStore;
  settings: ProfilesSettings;
  /** The public URL of a stored key. */
  urlFor(key: string, context: ResolverContext): string;
}): IResolvers {
  const { users, objects, settings } = deps;
  return {
    Upload: GraphQLUpload,
    Query: {
      users: () => users.listUsers(),
    },
    Mutation: {
      async createUser(_root, { input }: { input: { fullName: string; email: string } }) {
        try {
          return await users.insertUser({
            fullName: input.fullName,
            email: input.email,
            imgUri: settings.placeholderUrl,
            now: new Date(),
          });
        } catch (error) {
          throw new Error(`error inserting user: ${causeOf(error)}`);
        }
      },

      async uploadProfileImage(
        _root,
        { input }: { input: { userId?: string | null; file?: Promise<FileUpload> | null } },
        mercuriusContext: MercuriusContext,
      ) {
        const context = mercuriusContext as MercuriusContext & ResolverContext;
        if (!input.file) throw new Error('error uploading file: no file was sent (input.file is null)');
        const userId = input.userId ?? '';
        // Unread files are drained by the multipart hook, so refusing before reading is safe.
        if (userId.trim() === '') throw new Error('error getting user: input.userId is required');

        let file: FileUpload;
        try {
          file = await input.file;
        } catch (error) {
          throw new UploadRefused(`error uploading file: ${causeOf(error)}`, requestStatus(error));
        }
        const fileName = safeFileName(file.filename);
        if (fileName === '') {
          throw new Error(
            'error uploading file: the file name is empty (the part\'s filename is "" or only directories and control characters); send the file with its name, e.g. avatar.png',
          );
        }
        const key = `${userId}-${fileName}`;
        // `content/…` holds content's media and `.backlot-checkpoints/…` the checkpoints: never written from here.
        if (!objects.space.owns(key))
          throw new UploadRefused(
            `error uploading file: the key "${key}" (<userId>-<filename>) is reserved for another service's files; use a user's id`,
          );
        try {
          const checked = await checkImage(file.createReadStream(), {
            maxBytes: settings.maxFileBytes,
            allowedTypes: settings.allowedTypes,
          });
          await objects.put(key, checked.body, { contentType: checked.contentType });
        } catch (error) {
          if (error instanceof UploadRefused) throw error;
          throw new UploadRefused(`error uploading file: ${causeOf(error)}`, requestStatus(error));
        }

        // From here on the object stays stored whatever happens (spec, rule 4).
        let user: Awaited<ReturnType<UserStore['findUserById']>>;
        try {
          user = await users.findUserById(userId);
        } catch (error) {
          throw new Error(`error getting user: ${causeOf(error)}`);
        }
        if (!user) throw new Error(`error getting user: no user has id ${JSON.stringify(userId)}`);
        let updated: boolean;
        try {
          updated = await users.setImageUri(user.id, deps.urlFor(key, context));
        } catch (error) {
          throw new Error(`err updating user: ${causeOf(error)}`);
        }
        if (!updated) throw new Error(`err updating user: user ${user.id} was deleted meanwhile`);
        return true;
      },
    },
  };
}
