import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Category } from '@sitewalk/proto';
import { CATEGORY_READS, useCategoriesQuery } from '../../components/use-project-lookups';
import { NameListManager } from '../../components/name-list-manager';

/** /categories: the signed-in user's own categories, which label their projects. */
export default function CategoriesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useCategoriesQuery();
  const items = query.data ?? null;
  const error = query.isError ? query.error.message : null;
  return (
    <NameListManager<Category>
      entity="Category"
      path="/categories"
      items={items}
      loadError={error}
      heading={t('Your categories')}
      intro={t('Categories are your own labels for projects, such as a client or a phase. Only you see them.')}
      empty={t('You have no categories yet.')}
      onItems={(list) => queryClient.setQueryData<Category[]>(CATEGORY_READS, list)}
    />
  );
}
