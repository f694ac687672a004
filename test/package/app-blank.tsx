// The same app without skein: React and a root. The difference to
// app-main.tsx is what skein adds to an app's initial JavaScript.
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(<p>hello</p>);
