// Cohort checks in real headless Chromium with real WebGPU (src/cohort/cohort.browsercheck.ts): every
// shipped base checkpoint loads on WebGPU and on the CPU backend in the page and both give identical
// greedy answers on held-out problems; the pretraining factory runs in the page on WebGPU.
import { checkSuite } from './util';

const CHECKS = ['cohort:shipped-parity', 'cohort:pretrain-webgpu'];

checkSuite('cohort on WebGPU', CHECKS);
