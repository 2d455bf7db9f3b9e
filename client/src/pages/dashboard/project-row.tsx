import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { ProjectSummary } from '@sitewalk/proto';

/** One project in a dashboard list: cover thumbnail, linked name, a line of detail, and an optional action. */
export function ProjectRow({ project, detail, children }: { project: Pick<ProjectSummary, 'id' | 'name' | 'cover_thumb_url'>; detail: ReactNode; children?: ReactNode }) {
  return (
    <li className="list-group-item d-flex align-items-center gap-3 px-0">
      {project.cover_thumb_url ? (
        <img src={project.cover_thumb_url} alt="" className="rounded sw-thumb" />
      ) : (
        <span className="rounded sw-thumb sw-thumb-empty" aria-hidden="true">
          <i className="bi bi-building" />
        </span>
      )}
      <div className="flex-grow-1 min-w-0">
        <Link to={`/project/${project.id}`} className="fw-semibold text-truncate d-block">
          {project.name}
        </Link>
        <span className="small text-body-secondary">{detail}</span>
      </div>
      {children}
    </li>
  );
}
