import type { Context } from 'koa';
import {
  UPLOAD_LIMITS,
  userCreateSchema,
  userListQuerySchema,
  userUpdateSchema,
  type ProfileLoad,
  type User as UserDto,
  type UserCreateResponse,
  type UserImageKind,
  type UserList,
} from '@sitewalk/proto';
import { ok, created } from '../http/envelope.js';
import { currentUser, requireAuth, requireSuperAdmin } from '../http/auth.js';
import { body, idParam, query } from '../http/validate.js';
import { multipart, uploadedFile } from '../http/upload.js';
import { createUserByAdmin, deleteUser, listUsers, updateUser, userDto, visibleUser } from '@sitewalk/core/services/users.service.js';
import { loadProfile } from '@sitewalk/core/services/profile.service.js';
import { deleteUserImage, replaceUserImage } from '@sitewalk/core/services/user-images.service.js';
import type { RouteModule } from './types.js';

const IMAGE_LABEL: Record<UserImageKind, string> = { avatar: 'Avatar', cover_image: 'Cover image' };

/** SPEC §7 "Users": administration for super admins, and each user's own account and pictures. */
const usersRoutes: RouteModule = (r) => {
  r.get('/users', requireAuth, requireSuperAdmin, async (ctx) => {
    ok<UserList>(ctx, await listUsers(query(ctx, userListQuerySchema)));
  });

  r.post('/users', requireAuth, requireSuperAdmin, async (ctx) => {
    const res = await createUserByAdmin(currentUser(ctx), body(ctx, userCreateSchema));
    created<UserCreateResponse>(ctx, res, res.invitation_sent ? 'User created successfully! An invitation was sent by e-mail.' : 'User created successfully!');
  });

  // The pictures act on the signed-in user; these fixed paths come before /users/:id.
  const upload = (kind: UserImageKind) => async (ctx: Context) => {
    const user = await replaceUserImage(currentUser(ctx).id, kind, uploadedFile(ctx));
    ok<UserDto>(ctx, userDto(user), `${IMAGE_LABEL[kind]} updated.`);
  };
  const remove = (kind: UserImageKind) => async (ctx: Context) => {
    const user = await deleteUserImage(currentUser(ctx).id, kind);
    ok<UserDto>(ctx, userDto(user), `${IMAGE_LABEL[kind]} removed.`);
  };
  r.post('/users/avatar', requireAuth, multipart(UPLOAD_LIMITS.imageBytes), upload('avatar'));
  r.delete('/users/avatar/delete', requireAuth, remove('avatar'));
  r.post('/users/cover_image', requireAuth, multipart(UPLOAD_LIMITS.imageBytes), upload('cover_image'));
  r.delete('/users/cover_image/delete', requireAuth, remove('cover_image'));

  r.get('/users/:id', requireAuth, async (ctx) => {
    ok<UserDto>(ctx, userDto(await visibleUser(currentUser(ctx), idParam(ctx))));
  });

  r.put('/users/:id', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const { user, changed } = await updateUser(currentUser(ctx), id, body(ctx, userUpdateSchema));
    ok<UserDto>(ctx, userDto(user), changed.length ? 'User updated successfully!' : 'Nothing changed.');
  });

  r.delete('/users/:id', requireAuth, requireSuperAdmin, async (ctx) => {
    await deleteUser(currentUser(ctx), idParam(ctx));
    ok(ctx, null, 'User deleted successfully!');
  });

  r.get('/users/:id/profile', requireAuth, async (ctx) => {
    ok<ProfileLoad>(ctx, await loadProfile(currentUser(ctx), idParam(ctx)));
  });
};

export default usersRoutes;
