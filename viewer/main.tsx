// The viewer page's entry: `npm start`, `skein view`, and dist/viewer/index.html.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../src/styles.css';
import './viewer.css';
import { ViewerApp } from './app.js';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ViewerApp />
  </StrictMode>,
);
