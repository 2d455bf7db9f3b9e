import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type UpgradeCheck } from '@sitewalk/proto';
import { api } from '../../lib/api-client';

/** A size field as typed: empty is none, anything not a number is not asked about. */
const sizeValue = (s: string) => (s.trim() === '' ? null : Number(s.replace(',', '.')));

/**
 * On the project edit form: when the area, buildings or floors typed would
 * move the project into a dearer tier, says so before it is saved
 * (POST /project-tiers/check-upgrade, asked once typing pauses).
 */
export function TierUpgradeWarning({ projectId, area, buildings, floors, changed }: { projectId: number; area: string; buildings: string; floors: string; changed: boolean }) {
  const { t } = useTranslation();
  const [check, setCheck] = useState<UpgradeCheck | null>(null);

  useEffect(() => {
    const size = { area: sizeValue(area), num_buildings: sizeValue(buildings), num_floors: sizeValue(floors) };
    if (!changed || Object.values(size).some((v) => v !== null && (Number.isNaN(v) || v < 0))) {
      setCheck(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      api.post<UpgradeCheck>('/project-tiers/check-upgrade', { project_id: projectId, ...size }, MESSAGES.fetchTiersFailed).then(
        (c) => live && setCheck(c),
        // The warning is a courtesy: a failed check leaves the form as it is.
        () => live && setCheck(null),
      );
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [projectId, area, buildings, floors, changed]);

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
