// The colour of each reward method (and of the base agents) in Node's figures: `npm run plot` and the
// sweep report's charts draw a method in the same colour. The page's charts keep their own palette
// (src/app/train/chartData.ts), chosen for its light background.
export const METHOD_COLOURS: Readonly<Record<string, string>> = {
  'co-rl': '#d62728',
  ttrl: '#1f77b4',
  gt: '#2ca02c',
  intuitor: '#9467bd',
  rent: '#8c564b',
  random: '#7f7f7f',
  'co-rl-frozen': '#17becf',
  base: '#000000',
};
