// The baseline app: React and a root, nothing from skein. What the other apps
// add on top of this is what skein costs.
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(<p>hello</p>);
