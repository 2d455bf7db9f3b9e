import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type UpgradeCheck } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { useSettledValue } from '../../lib/use-settled-value';
import { TIER_READS } from '../tiers/use-tier-queries';

/** A size field as typed: empty is none, anything not a number is not asked about. */
const sizeValue = (s: string) => (s.trim() === '' ? null : Number(s.replace(',', '.')));

/**
 * On the project edit form: when the area, buildings or floors typed would
 * move the project into a dearer tier, says so before it is saved
 * (POST /project-tiers/check-upgrade, asked once typing pauses).
 */
export function TierUpgradeWarning({ projectId, area, buildings, floors, changed }: { projectId: number; area: string; buildings: string; floors: string; changed: boolean }) {
  const { t } = useTranslation();
  const size = { area: sizeValue(area), num_buildings: sizeValue(buildings), num_floors: sizeValue(floors) };
  const askable = changed && !Object.values(size).some((v) => v !== null && (Number.isNaN(v) || v < 0));
  // Asked once typing pauses; the key is text so that equal sizes are one question.
  const asked = useSettledValue(askable ? JSON.stringify(size) : null, 400);
  const query = useQuery({
    queryKey: [...TIER_READS, 'check-upgrade', projectId, asked],
    enabled: askable && asked !== null,
    queryFn: ({ signal }) => api.post<UpgradeCheck>('/project-tiers/check-upgrade', { project_id: projectId, ...(JSON.parse(asked!) as object) }, MESSAGES.fetchTiersFailed, { signal }),
    // The last answer stays while the next size is asked about.
    placeholderData: keepPreviousData,
  });
  // The warning is a courtesy: a failed check, or a size not asked about, shows nothing.
  const check = askable && asked !== null && !query.isError ? (query.data ?? null) : null;

  if (!check?.upgrade || !check.new_tier) return null;
  return (
    <div className="alert alert-warning d-flex gap-2" role="alert" data-testid="tier-upgrade-warning">
      <i className="bi bi-graph-up-arrow" aria-hidden="true" />
      <div>
        {t('Saving this moves the project into the higher tier "{tier}" ({price} {currency} per month).', { tier: check.new_tier.name, price: check.new_tier.price, currency: check.new_tier.currency })}
        {check.current_tier && <div className="small">{t('It is in the tier "{tier}" now.', { tier: check.current_tier.name })}</div>}
      </div>
    </div>
  );
}
