import { describe, expect, it } from 'vitest';
import { durationOf, waitOf } from './waits';

describe('a wait as the console edits it', () => {
  it('reads a duration as a whole number of its largest unit', () => {
    expect(waitOf('PT2H')).toEqual({ amount: '2', unit: 'hours' });
    expect(waitOf('P2D')).toEqual({ amount: '2', unit: 'days' });
    expect(waitOf('P1W')).toEqual({ amount: '7', unit: 'days' });
    expect(waitOf('P1DT12H')).toEqual({ amount: '36', unit: 'hours' });
    expect(waitOf('PT90M')).toEqual({ amount: '90', unit: 'minutes' });
    expect(waitOf('PT120M')).toEqual({ amount: '2', unit: 'hours' });
    expect(waitOf('P1WT1M')).toEqual({ amount: '10081', unit: 'minutes' });
    // Numbers of more than one digit in each part.
    expect(waitOf('P12W')).toEqual({ amount: '84', unit: 'days' });
    expect(waitOf('P14DT10H')).toEqual({ amount: '346', unit: 'hours' });
    expect(waitOf('PT36H15M')).toEqual({ amount: '2175', unit: 'minutes' });
  });

  it('leaves alone what it cannot edit: seconds, an empty duration, a bare T, months, text', () => {
    for (const duration of ['PT30S', 'P', 'PT', 'P1DT', 'P1M', 'P1Y', '2 days', 'pt2h', ' PT2H', 'PT2H ']) expect(waitOf(duration), duration).toBeUndefined();
  });

  it('writes the duration the API takes', () => {
    expect(durationOf({ amount: '3', unit: 'days' })).toBe('P3D');
    expect(durationOf({ amount: '3', unit: 'hours' })).toBe('PT3H');
    expect(durationOf({ amount: '30', unit: 'minutes' })).toBe('PT30M');
    // Read and written again: the same length, in the unit it is edited in.
    expect(['PT2H', 'P2D', 'PT45M', 'P1DT12H', 'P1W'].map((duration) => durationOf(waitOf(duration)!))).toEqual(['PT2H', 'P2D', 'PT45M', 'PT36H', 'P7D']);
  });
});
