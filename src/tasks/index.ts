// Public entry point of the task module: configs, problems, views, extraction, tokenizer (the seeded RNG is src/util/rng.ts).
export * from './config';
export * from './views';
export * from './task';
export * from './tokenizer';
export * from './tokenizers';
export { pad } from './kinds';
