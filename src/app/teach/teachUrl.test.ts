// Embed and tour links: what is read, and every unknown or bad parameter listed with the default kept.
import { describe, expect, it } from 'vitest';
import { parseEmbed, parseTour, tourHash } from './teachUrl';
import { settingsFromQuery } from '../../formats/urlConfig';

describe('embed links', () => {
  it('reads the panels, in order, and run', () => {
    expect(parseEmbed('?embed=1&show=portrait,heldout&run=1')).toEqual({
      on: true,
      show: ['portrait', 'heldout'],
      run: true,
      problems: [],
    });
    expect(parseEmbed('').on).toBe(false);
  });
  it('lists unknown panels and bad values, keeping the defaults', () => {
    const e = parseEmbed('?embed=1&show=heldout,nope&run=maybe');
    expect(e.show).toEqual(['heldout']);
    expect(e.run).toBe(false);
    expect(e.problems.map((p) => `${p.key}=${p.value}`)).toEqual(['run=maybe', 'show=nope']);
    const none = parseEmbed('?embed=1&show=x,y');
    expect(none.show).toEqual(['heldout']);
    expect(none.problems.at(-1)!.reason).toMatch(/no known panel/);
    expect(parseEmbed('?embed=yes').problems[0].reason).toMatch(/must be 1, 0, true or false/);
    expect(parseEmbed('?show=kl').problems[0]).toMatchObject({
      key: 'show',
      reason: 'only read with embed=1',
    });
  });
  it('the run-settings link leaves the embed parameters alone', () => {
    const r = settingsFromQuery('?embed=1&show=heldout&run=1&steps=5');
    expect(r.ignored).toEqual([]);
    expect(r.settings.steps).toBe(5);
  });
});

describe('tour links', () => {
  it('opens at a step, and lists what it cannot read', () => {
    expect(parseTour('#tour', 8)).toEqual({ on: true, step: 0, problems: [] });
    expect(parseTour('#tour?step=3', 8).step).toBe(2);
    expect(parseTour('#train', 8).on).toBe(false);
    const bad = parseTour('#tour?step=0&x=1', 8);
    expect(bad.step).toBe(0);
    expect(bad.problems.map((p) => p.key)).toEqual(['step', 'x']);
    expect(tourHash(0)).toBe('#tour');
    expect(tourHash(4)).toBe('#tour?step=5');
  });
});
