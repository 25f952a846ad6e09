// Trainer checks in real headless Chromium with real WebGPU (src/rl/trainer.browsercheck.ts): a few GRPO
// steps of a two-agent cohort on WebGPU and on the CPU reference give identical answers, votes and
// rewards and parameters within tolerance, for co-rl, for gt with inner epochs + KL, and for intuitor; and
// the same run twice on WebGPU gives identical answers, votes and rewards (determinism).
import { checkSuite } from './util';

const CHECKS = [
  'trainer:parity-co-rl',
  'trainer:parity-gt-epochs-kl',
  'trainer:parity-intuitor',
  'trainer:determinism-webgpu',
];

checkSuite('trainer on WebGPU vs CPU', CHECKS);
