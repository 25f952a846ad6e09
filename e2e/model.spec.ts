// Whole-model checks in real headless Chromium with real WebGPU (src/model/model.browsercheck.ts):
// one training step matches the CPU reference for both positional variants, greedy decoding agrees
// across backends, KV-cached decoding equals full recompute, and a short SFT run learns on WebGPU.
import { checkSuite } from './util';

const CHECKS = [
  'model:step-parity-learned',
  'model:step-parity-rope',
  'model:greedy-parity',
  'model:cached-vs-full',
  'model:sft-webgpu',
];

checkSuite('model on WebGPU', CHECKS);
