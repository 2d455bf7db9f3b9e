import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { CategoryRef, ProjectDetail } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { useCategoriesQuery } from '../../components/use-project-lookups';

/**
 * The project's categories. Categories belong to a user, so only the owner
 * adds and removes them here (the edit form does it too).
 */
export function CategoriesCard({ project, onChange }: { project: ProjectDetail; onChange(categories: CategoryRef[]): void }) {
  const { t } = useTranslation();
  const [pick, setPick] = useState('');
  const [busy, setBusy] = useState(false);
  const editable = project.role === 'owner';
  // Only the owner adds categories here: nobody else needs them read.
  const own = useCategoriesQuery(editable).data ?? null;

  const assigned = new Set(project.categories.map((c) => c.id));
  const available = (own ?? []).filter((c) => !assigned.has(c.id));

  const change = async (idCategory: number, add: boolean) => {
    setBusy(true);
    try {
      const path = add ? '/categories/assign' : '/categories/remove';
      const fallback = add ? tk('Failed to assign the category.') : tk('Failed to remove the category.');
      onChange(await api.post<CategoryRef[]>(path, { id_category: idCategory, id_project: project.id }, fallback));
      setPick('');
    } catch (err) {
      formToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card border-0 shadow-sm mb-3" aria-labelledby="categories-heading">
      <div className="card-header bg-transparent d-flex align-items-center">
        <h2 id="categories-heading" className="h6 mb-0 me-auto">
          {t('Categories')}
        </h2>
        {editable && (
          <Link to="/categories" className="small">
            {t('Manage categories')}
          </Link>
        )}
      </div>
      <div className="card-body">
        {project.categories.length === 0 ? (
          <p className="text-body-secondary small mb-2">{t('No categories.')}</p>
        ) : (
          <ul className="list-unstyled d-flex flex-wrap gap-2 mb-2" aria-label={t('Categories')}>
            {project.categories.map((c) => (
              <li key={c.id} className="badge rounded-pill bg-primary-subtle text-primary-emphasis d-inline-flex align-items-center gap-1 fs-6 fw-normal">
                {c.name}
                {editable && (
                  <button
                    type="button"
                    className="btn btn-link btn-sm p-0 text-primary-emphasis lh-1"
                    onClick={() => void change(c.id, false)}
                    disabled={busy}
                    aria-label={t('Remove category {name}', { name: c.name })}
                  >
                    <i className="bi bi-x-circle" aria-hidden="true" />
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {editable && available.length > 0 && (
          <form
            className="d-flex gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (pick) void change(Number(pick), true);
            }}
          >
            <label htmlFor="add-category" className="visually-hidden">
              {t('Add a category')}
            </label>
            <select id="add-category" className="form-select form-select-sm" value={pick} onChange={(e) => setPick(e.target.value)}>
              <option value="">{t('Add a category')}</option>
              {available.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
            <button type="submit" className="btn btn-outline-primary btn-sm" disabled={!pick || busy}>
              {t('Add')}
            </button>
          </form>
        )}
      </div>
    </section>
  );
}
