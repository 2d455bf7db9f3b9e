/**
 * The value axes of a usage chart. Counts (projects, owners) and sums of
 * money differ by orders of magnitude: on one axis the count bars shrink to
 * nothing beside the cost. When a chart has both, money gets an axis of its
 * own on the far side, each axis titled with what it measures.
 */
export interface AxisMeasure {
  key: string;
  /** Already translated. */
  label: string;
  format?: (v: number) => string;
  /** 'money' for sums of money; counts otherwise. */
  axis?: 'count' | 'money';
}

/** The chart.js axis id a measure is drawn against. */
export function axisId(measure: AxisMeasure, measures: readonly AxisMeasure[]): 'y' | 'y1' {
  return measure.axis === 'money' && measures.some((m) => m.axis !== 'money') ? 'y1' : 'y';
}

/** chart.js `scales` for the measures: one value axis, or counts on the near side and money on the far side. */
export function chartScales(measures: readonly AxisMeasure[], rtl: boolean): Record<string, Record<string, unknown>> {
  const money = measures.filter((m) => m.axis === 'money');
  const counts = measures.filter((m) => m.axis !== 'money');
  const near = rtl ? 'right' : 'left';
  const far = rtl ? 'left' : 'right';
  const title = (ms: readonly AxisMeasure[]) => ({ display: true, text: ms.map((m) => m.label).join(' · ') });
  const ticks = (ms: readonly AxisMeasure[]) => {
    const format = ms.length === 1 ? ms[0].format : undefined;
    return format ? { callback: (v: number | string) => format(Number(v)) } : { precision: 0 };
  };
  if (!money.length || !counts.length) {
    return { x: { reverse: rtl }, y: { beginAtZero: true, position: near, title: title(measures), ticks: ticks(measures) } };
  }
  return {
    x: { reverse: rtl },
    y: { beginAtZero: true, position: near, title: title(counts), ticks: ticks(counts) },
    // Its grid lines would cross the counts' lines at other heights; one grid reads better.
    y1: { beginAtZero: true, position: far, title: title(money), ticks: ticks(money), grid: { drawOnChartArea: false } },
  };
}
