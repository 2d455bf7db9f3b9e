import { Outlet, useMatches } from 'react-router-dom';

/**
 * The public screens (sign-in, activation, reset, viewer) with the 300 ms
 * page fade. The fade runs when the screen changes, not when only its
 * parameters do: the viewer rewrites its address as one walks from room to
 * room, and must not start again each time.
 */
export function PublicLayout() {
  const matches = useMatches();
  const screen = matches[matches.length - 1]?.id ?? '';
  return (
    <div key={screen} className="sw-page sw-page-fade">
      <Outlet />
    </div>
  );
}
