import { Outlet, useLocation } from 'react-router-dom';

/** The public screens (sign-in, activation, reset) with the 300 ms page fade. */
export function PublicLayout() {
  const { pathname } = useLocation();
  return (
    <div key={pathname} className="sw-page sw-page-fade">
      <Outlet />
    </div>
  );
}
