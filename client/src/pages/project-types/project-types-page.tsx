import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProjectType } from '@sitewalk/proto';
import { useProjectLookups } from '../../stores/projects.store';
import { NameListManager } from '../../components/name-list-manager';

/** /project-types (super admins): the project types every user picks from. */
export default function ProjectTypesPage() {
  const { t } = useTranslation();
  const items = useProjectLookups((s) => s.types.items);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    useProjectLookups
      .getState()
      .loadTypes(true)
      .catch((err: unknown) => setError((err as Error).message));
  }, []);
  return (
    <NameListManager<ProjectType>
      entity="Project type"
      path="/project-types"
      items={items}
      loadError={error}
      heading={t('Project types')}
      intro={t('Every user picks the type of a project from this list. Deleting a type leaves its projects without a type.')}
      empty={t('There are no project types yet.')}
      onItems={(list) => useProjectLookups.getState().setTypes(list)}
    />
  );
}
