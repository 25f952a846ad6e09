// Placeholder page (replaced by the playground): shows the app is alive.
export function App() {
  return <h1>Co-RL Playground</h1>;
}
