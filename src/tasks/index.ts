// Public entry point of the task module: configs, problems, views, extraction, tokenizer and seeded RNG.
export * from './config';
export * from './rng';
export * from './views';
export * from './task';
export * from './tokenizer';
export * from './tokenizers';
export { pad } from './kinds';
