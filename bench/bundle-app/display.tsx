// `<Display>` alone, on a plain value.
import { createRoot } from 'react-dom/client';
import { Display } from 'skein/react';
import 'skein/styles.css';

createRoot(document.getElementById('root')!).render(<Display value={{ rows: [1, 2, 3] }} />);
