import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Category } from '@sitewalk/proto';
import { useProjectLookups } from '../../stores/projects.store';
import { NameListManager } from '../../components/name-list-manager';

/** /categories: the signed-in user's own categories, which label their projects. */
export default function CategoriesPage() {
  const { t } = useTranslation();
  const items = useProjectLookups((s) => s.categories.items);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    useProjectLookups
      .getState()
      .loadCategories(true)
      .catch((err: unknown) => setError((err as Error).message));
  }, []);
  return (
    <NameListManager<Category>
      entity="Category"
      path="/categories"
      items={items}
      loadError={error}
      heading={t('Your categories')}
      intro={t('Categories are your own labels for projects, such as a client or a phase. Only you see them.')}
      empty={t('You have no categories yet.')}
      onItems={(list) => useProjectLookups.getState().setCategories(list)}
    />
  );
}
