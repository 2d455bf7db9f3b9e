import { describe, expect, it } from 'vitest';
import { axisId, chartScales, type AxisMeasure } from './chart-axes';

const money = (v: number) => `${v} JOD`;
const projects: AxisMeasure = { key: 'projects', label: 'Projects' };
const cost: AxisMeasure = { key: 'cost', label: 'Cost', format: money, axis: 'money' };

describe('the value axes of a usage chart', () => {
  it('draws counts and money against two axes, money on the far side with its own format', () => {
    const scales = chartScales([projects, cost], false);
    expect(axisId(projects, [projects, cost])).toBe('y');
    expect(axisId(cost, [projects, cost])).toBe('y1');
    expect(scales.y).toMatchObject({ position: 'left', title: { text: 'Projects' }, ticks: { precision: 0 } });
    expect(scales.y1).toMatchObject({ position: 'right', title: { text: 'Cost' }, grid: { drawOnChartArea: false } });
    expect((scales.y1.ticks as { callback(v: number): string }).callback(2500)).toBe('2500 JOD');
  });

  it('mirrors the sides in right-to-left languages', () => {
    const scales = chartScales([projects, cost], true);
    expect(scales.y.position).toBe('right');
    expect(scales.y1.position).toBe('left');
    expect(scales.x).toEqual({ reverse: true });
  });

  it('keeps one axis when every measure is of one kind', () => {
    const owners: AxisMeasure = { key: 'owners', label: 'Owners' };
    const scales = chartScales([projects, owners], false);
    expect(Object.keys(scales)).toEqual(['x', 'y']);
    expect(scales.y.title).toEqual({ display: true, text: 'Projects · Owners' });
    expect(axisId(owners, [projects, owners])).toBe('y');
    expect(axisId(cost, [cost])).toBe('y');
  });
});
