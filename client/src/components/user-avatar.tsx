/** The user's avatar, or a placeholder with the first letter of the username (SPEC §2). */
export function UserAvatar({ user, size = 32 }: { user: { username?: string; avatar?: string | null } | null; size?: number }) {
  const letter = (user?.username?.trim()[0] ?? '?').toUpperCase();
  const style = { width: size, height: size, fontSize: Math.round(size * 0.45) };
  if (user?.avatar) {
    return <img src={user.avatar} alt="" className="rounded-circle sw-avatar" style={style} />;
  }
  return (
    <span className="rounded-circle sw-avatar sw-avatar-placeholder" style={style} aria-hidden="true" data-testid="avatar-placeholder">
      {letter}
    </span>
  );
}
