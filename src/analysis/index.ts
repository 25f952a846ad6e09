// Public entry point of the analysis module: error-overlap metrics, §6 theory ODEs and the tabular simulation.
export * from './overlap';
export * from './theory';
export * from './tabular';
