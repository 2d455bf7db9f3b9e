import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { BarElement, CategoryScale, Chart as ChartJS, Legend, LineElement, LinearScale, PointElement, Tooltip } from 'chart.js';
import { Bar, Line } from 'react-chartjs-2';
import type { Series } from './usage-data';
import { axisId, chartScales, type AxisMeasure } from './chart-axes';

// Only the parts these charts use: chart.js stays small, and it loads with the /tiers screen only.
ChartJS.register(CategoryScale, LinearScale, BarElement, LineElement, PointElement, Tooltip, Legend);

/** A column of the table and a series of the chart; 'money' measures get their own axis beside counts. */
export type Measure = AxisMeasure;

const PALETTE = ['#2987f2', '#f29129', '#2fb37a', '#a855f7'];

/**
 * A chart with the same numbers in a table beside it: the table is what
 * screen readers and keyboard users read (the canvas is one labelled image),
 * and it stays below the chart on a phone.
 */
export function ChartWithTable({ title, series, measures, kind, testId }: { title: string; series: Series; measures: Measure[]; kind: 'bar' | 'line'; testId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const data = {
    labels: series.labels,
    datasets: measures.map((m, i) => ({
      label: m.label,
      data: series.values[m.key] ?? [],
      backgroundColor: PALETTE[i % PALETTE.length],
      borderColor: PALETTE[i % PALETTE.length],
      yAxisID: axisId(m, measures),
    })),
  };
  const rtl = document.documentElement.dir === 'rtl';
  const options = {
    responsive: true,
    maintainAspectRatio: false,
    animation: false as const,
    locale: document.documentElement.lang || 'en',
    plugins: { legend: { position: 'bottom' as const, rtl } },
    scales: chartScales(measures, rtl),
  };
  return (
    <section className="card border-0 shadow-sm" aria-labelledby={headingId} data-testid={testId}>
      <div className="card-header bg-transparent">
        <h3 id={headingId} className="h6 mb-0">
          {title}
        </h3>
      </div>
      <div className="card-body">
        {series.labels.length === 0 ? (
          <p className="text-body-secondary mb-0">{t('No projects to show for this period.')}</p>
        ) : (
          <div className="row g-3">
            <div className="col-lg-7">
              <div style={{ position: 'relative', height: '16rem' }}>
                {kind === 'bar' ? (
                  <Bar data={data} options={options} role="img" aria-label={t('Chart: {title}. The table beside it has the same numbers.', { title })} />
                ) : (
                  <Line data={data} options={options} role="img" aria-label={t('Chart: {title}. The table beside it has the same numbers.', { title })} />
                )}
              </div>
            </div>
            <div className="col-lg-5">
              <div className="table-responsive">
                <table className="table table-sm mb-0">
                  <caption className="visually-hidden">{title}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{kind === 'line' ? t('Month') : t('Tier')}</th>
                      {measures.map((m) => (
                        <th key={m.key} scope="col" className="text-end">
                          {m.label}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {series.labels.map((label, i) => (
                      <tr key={`${label}-${i}`}>
                        <th scope="row" className="fw-normal">
                          {label}
                        </th>
                        {measures.map((m) => {
                          const v = series.values[m.key]?.[i] ?? 0;
                          return (
                            <td key={m.key} className="text-end">
                              {m.format ? m.format(v) : v}
                            </td>
                          );
                        })}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
