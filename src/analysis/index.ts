// Public entry point of the analysis module: error-overlap metrics, the theory ODEs (docs/method.md, "Theory") and the tabular simulation.
export * from './overlap';
export * from './theory';
export * from './tabular';
