import type { GraphQLResolveInfo } from 'graphql';
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { Context } from '../../src/services/context.ts';
import { ForbiddenError, UnauthenticatedError, ValidationError } from '../../src/domain/errors.ts';
import {
  applicationPasswordSelect,
  canSeePrivate,
  createApplicationPassword,
  createUser,
  deleteUser,
  revokeApplicationPassword,
  updateUser,
  userListWhere,
  type ApplicationPasswordSummary,
} from '../../src/services/users.ts';
import { builder } from '../builder.ts';
import { writeErrors } from '../errors.ts';
import { globalId, optionalRecordId, recordId } from '../ids.ts';
import { CONNECTION_NODE_PATHS, pageArgs, PagedConnectionInterface, paginate, prismaList } from '../pagination.ts';
import { deletedIdField, writtenEdge, writtenPayload } from '../payloads.ts';

export const UserRoleEnum = builder.enumType('UserRole', {
  description: 'WordPress roles.',
  values: ['ADMINISTRATOR', 'EDITOR', 'AUTHOR', 'CONTRIBUTOR', 'SUBSCRIBER'] as const,
});

export const ApplicationPasswordRef = builder.objectRef<ApplicationPasswordSummary>('ApplicationPassword').implement({
  description: 'An application password (WordPress format) of a user. The password itself is shown only when created.',
  fields: (t) => ({
    uuid: t.exposeString('uuid', { description: 'Identifies the password, e.g. to revoke it.' }),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Last successful sign-in (to the minute); null when never used.' }),
    lastIp: t.exposeString('lastIp', { nullable: true, description: 'Client address of the last sign-in.' }),
  }),
});

export const NewApplicationPasswordRef = builder
  .objectRef<ApplicationPasswordSummary & { password: string }>('NewApplicationPassword')
  .implement({
    description: 'A just-created application password. `password` is shown this once: only a hash is stored.',
    fields: (t) => ({
      password: t.exposeString('password', { description: '24 characters in groups of four; spaces are optional when signing in.' }),
      uuid: t.exposeString('uuid'),
      name: t.exposeString('name'),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
      userId: t.id({ description: 'Global ID of the owner (a User).', resolve: (p) => globalId('User', p.userId) }),
    }),
  });

export const DeletedUserRef = builder.objectRef<{ id: number; login: string }>('DeletedUser').implement({
  // No `id`: the global ID is the deleted User's, and a normalized cache keys records by it.
  description: 'The account that was deleted (its global ID is the payload\'s `deletedId`).',
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    login: t.exposeString('login'),
  }),
});

export const UserRef = builder.prismaNode('User', {
  description: 'An account.',
  id: { field: 'id' },
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    login: t.exposeString('login'),
    email: t.string({
      nullable: true,
      description: 'Only for the user themself and administrators; null otherwise. Empty when not set.',
      select: { email: true },
      resolve: (u, _a, ctx) => (canSeePrivate(ctx, u.id) ? u.email : null),
    }),
    displayName: t.exposeString('displayName'),
    // WordPress does not publish roles: like the email, only the user and administrators see it.
    role: t.field({
      type: UserRoleEnum,
      nullable: true,
      description: 'Only for the user themself and administrators; null otherwise.',
      select: { role: true },
      resolve: (u, _a, ctx) => (canSeePrivate(ctx, u.id) ? u.role : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    applicationPasswords: t.field({
      type: [ApplicationPasswordRef],
      nullable: true,
      description: 'Oldest first. Only for the user themself and administrators; null otherwise. Never the hashes.',
      select: { applicationPasswords: { select: applicationPasswordSelect, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
      resolve: (u, _a, ctx) => (canSeePrivate(ctx, u.id) ? u.applicationPasswords : null),
    }),
  }),
});

const listErrors = [UnauthenticatedError, ForbiddenError, ValidationError] as const;

/** Accounts by login (ties by ID). */
const userList = (ctx: Context, where: object, select: object) =>
  prismaList({ model: 'User', table: ctx.prisma.user, where, orderBy: [{ login: 'asc' }, { id: 'asc' }], select });

export const UserEdgeRef = builder.edgeObject({ type: UserRef, name: 'UserConnectionEdge' });

builder.queryFields((t) => ({
  me: t.prismaField({
    type: 'User',
    nullable: true,
    description: 'The signed-in user, or null for anonymous callers.',
    resolve: (query, _root, _args, ctx) => (ctx.viewer ? ctx.prisma.user.findUnique({ ...query, where: { id: ctx.viewer.id } }) : null),
  }),
  users: t.connection(
    {
      type: UserRef,
      description: 'Accounts by login (administrators only). Cursors hold the login and the ID.',
      errors: { types: [...listErrors] },
      args: {
        role: t.arg({ type: UserRoleEnum, description: 'Only users with this role.' }),
        ...pageArgs,
      },
      resolve: async (_root, args, ctx, info) => {
        const where = userListWhere(ctx, { role: args.role });
        const select = queryFromInfo({ context: ctx, info, paths: CONNECTION_NODE_PATHS, typeName: 'User' });
        return paginate(ctx, args, userList(ctx, where, select), info);
      },
    },
    { name: 'UserConnection', interfaces: [PagedConnectionInterface] },
    UserEdgeRef,
  ),
}));

const CreateUserInput = builder.inputType('CreateUserInput', {
  fields: (t) => ({
    login: t.string({ required: true, description: 'Letters, digits and _ . @ - (60 at most). Cannot be changed later.' }),
    password: t.string({ required: true, description: '8 to 200 characters.' }),
    role: t.field({ type: UserRoleEnum, required: true }),
    email: t.string({ description: 'Unique among users when given.' }),
    displayName: t.string({ description: 'Defaults to the login.' }),
  }),
});

const UpdateUserInput = builder.inputType('UpdateUserInput', {
  description: 'Fields not given stay as they are. Users may change their own password, email and display name; role changes need an administrator.',
  fields: (t) => ({
    password: t.string({ description: '8 to 200 characters.' }),
    role: t.field({ type: UserRoleEnum }),
    email: t.string({ description: 'Empty string clears it.' }),
    displayName: t.string(),
  }),
});

const reloadUser = (ctx: Context, query: object, id: number) => ctx.prisma.user.findUniqueOrThrow({ ...query, where: { id } });
const userEdge = (ctx: Context, info: GraphQLResolveInfo, id: number) => writtenEdge(ctx, info, 'User', id, (select) => userList(ctx, {}, select));

const CreateUserSuccess = writtenPayload({
  name: 'CreateUserSuccess',
  description: 'The created account, and its edge for lists that show it.',
  model: 'User',
  field: 'user',
  reload: reloadUser,
  edge: { ref: UserEdgeRef, description: 'Its edge in the list of accounts (by login).', resolve: userEdge },
});
const UpdateUserSuccess = writtenPayload({ name: 'UpdateUserSuccess', description: 'The updated account.', model: 'User', field: 'user', reload: reloadUser });
const DeleteUserSuccess = builder.objectRef<{ id: number; login: string }>('DeleteUserSuccess').implement({
  description: 'The deleted account: its global ID and what it was.',
  fields: (t) => ({
    deletedId: t.id(deletedIdField('User')),
    deleted: t.field({ type: DeletedUserRef, resolve: (u) => u }),
  }),
});
const CreateApplicationPasswordSuccess = builder.objectRef<ApplicationPasswordSummary & { password: string }>('CreateApplicationPasswordSuccess').implement({
  description: 'The created application password (its password shown this once).',
  fields: (t) => ({ applicationPassword: t.field({ type: NewApplicationPasswordRef, resolve: (p) => p }) }),
});
const RevokeApplicationPasswordSuccess = builder.objectRef<ApplicationPasswordSummary>('RevokeApplicationPasswordSuccess').implement({
  description: 'The revoked application password.',
  fields: (t) => ({ applicationPassword: t.field({ type: ApplicationPasswordRef, resolve: (p) => p }) }),
});

builder.mutationFields((t) => ({
  createUser: t.field({
    type: CreateUserSuccess,
    description: 'Creates an account (administrators only).',
    errors: { types: [...writeErrors] },
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: async (_root, args, ctx) => ({ id: await createUser(ctx, args.input) }),
  }),
  updateUser: t.field({
    type: UpdateUserSuccess,
    description: 'Partial update of an account: the user themself or administrators.',
    errors: { types: [...writeErrors] },
    args: { id: t.arg.id({ required: true, description: 'Global ID, or database ID.' }), input: t.arg({ type: UpdateUserInput, required: true }) },
    resolve: async (_root, args, ctx) => ({ id: await updateUser(ctx, recordId(args.id, ['User'], 'id'), args.input) }),
  }),
  deleteUser: t.field({
    type: DeleteUserSuccess,
    description:
      'Deletes an account and its application passwords (administrators only; not your own, not the last administrator). Its events, venues and organizers keep existing without an author.',
    errors: { types: [...writeErrors] },
    args: { id: t.arg.id({ required: true, description: 'Global ID, or database ID.' }) },
    resolve: (_root, args, ctx) => deleteUser(ctx, recordId(args.id, ['User'], 'id')),
  }),
  createApplicationPassword: t.field({
    type: CreateApplicationPasswordSuccess,
    description: "Creates an application password for the caller, or (administrators) for `userId`. Names are unique per user.",
    errors: { types: [...writeErrors] },
    args: { name: t.arg.string({ required: true }), userId: t.arg.id({ description: 'Defaults to the caller. Global ID, or database ID.' }) },
    resolve: (_root, args, ctx) => createApplicationPassword(ctx, args.name, optionalRecordId(args.userId, ['User'], 'userId')),
  }),
  revokeApplicationPassword: t.field({
    type: RevokeApplicationPasswordSuccess,
    description: 'Revokes an application password at once: its owner or administrators. Returns the revoked password.',
    errors: { types: [...writeErrors] },
    args: { uuid: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => revokeApplicationPassword(ctx, args.uuid),
  }),
}));
