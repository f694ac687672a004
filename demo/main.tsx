// The demo page (`npm start`). It imports skein by package name, exactly as an
// application would, and grows into the viewer as components land.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'skein/styles.css';
import { App } from './app.js';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
