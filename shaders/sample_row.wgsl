// Token choice over one row of `logits` (greedy argmax, inverse-CDF sampling, the chosen token's
// log-prob), prepended to sample.wgsl and decode.wgsl: both declare a storage array `logits` and a
// uniform `params` with fields v (row length), inv_temp, seed and counter. CPU twin: src/engine/cpu/sample.ts.

fn argmax_row(row: u32) -> u32 {
  var best = logits[row];
  var tok = 0u;
  for (var i = 1u; i < params.v; i++) {
    let x = logits[row + i];
    if (x > best) { best = x; tok = i; }
  }
  return tok;
}

fn sample_row(row: u32, r: u32) -> u32 {
  // unnormalised probabilities e_i = exp(z_i - max z), z = logits * (1/T), summed in index order
  var mx = -3.0e38;
  for (var i = 0u; i < params.v; i++) { mx = max(mx, logits[row + i] * params.inv_temp); }
  var total = 0.0;
  for (var i = 0u; i < params.v; i++) { total += exp(logits[row + i] * params.inv_temp - mx); }
  let goal = uniform01(params.seed, params.counter, r) * total;
  // first i whose cumulative sum exceeds u * total; if rounding leaves none, the last i with e_i > 0
  var cum = 0.0;
  var last_pos = 0u;
  for (var i = 0u; i < params.v; i++) {
    let e = exp(logits[row + i] * params.inv_temp - mx);
    cum += e;
    if (e > 0.0) { last_pos = i; }
    if (cum > goal) { return i; }
  }
  return last_pos;
}

// log softmax(logits[row..] * inv_temp)[tok] (inv_temp = 1 when greedy), in the CPU twin's order.
fn token_logp(row: u32, tok: u32) -> f32 {
  var mx = -3.0e38;
  for (var i = 0u; i < params.v; i++) { mx = max(mx, logits[row + i] * params.inv_temp); }
  var total = 0.0;
  for (var i = 0u; i < params.v; i++) { total += exp(logits[row + i] * params.inv_temp - mx); }
  return (logits[row + tok] * params.inv_temp - mx) - log(total);
}
