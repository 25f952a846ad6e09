// App entry: mounts the React tree.
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { initShare } from './store/shareBridge';

initShare(); // the link's run settings, read before the first render (App has set the view from the URL)
createRoot(document.getElementById('root')!).render(<App />);
