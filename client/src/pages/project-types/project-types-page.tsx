import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ProjectType } from '@sitewalk/proto';
import { PROJECT_TYPE_READS, useProjectTypesQuery } from '../../components/use-project-lookups';
import { NameListManager } from '../../components/name-list-manager';

/** /project-types (super admins): the project types every user picks from. */
export default function ProjectTypesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useProjectTypesQuery();
  const items = query.data ?? null;
  const error = query.isError ? query.error.message : null;
  return (
    <NameListManager<ProjectType>
      entity="Project type"
      path="/project-types"
      items={items}
      loadError={error}
      heading={t('Project types')}
      intro={t('Every user picks the type of a project from this list. Deleting a type leaves its projects without a type.')}
      empty={t('There are no project types yet.')}
      onItems={(list) => queryClient.setQueryData<ProjectType[]>(PROJECT_TYPE_READS, list)}
    />
  );
}
