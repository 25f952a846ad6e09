// Kernel variants chosen by measurement on the adapter at hand (src/engine/webgpu/tune.browsercheck.ts):
// the fastest measured variant is chosen and run, forced variants are checked against the shape, and the
// choices round-trip through IndexedDB while other adapters' and older kernel versions' records are ignored.
import { checkSuite } from './util';

checkSuite('kernel choice by measurement', ['kernels:tune']);
