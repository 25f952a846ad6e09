// Public entry point of the model module: config, parameter layout, GPT, generation, checkpoints, SFT.
export * from './config';
export * from './params';
export * from './gpt';
export * from './generate';
export * from './checkpoint';
export * from './sft';
