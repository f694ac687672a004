import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  // The introduction (an MDX page) first; then one folder per component.
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs', '@storybook/addon-vitest', '@storybook/addon-a11y'],
  framework: { name: '@storybook/react-vite', options: {} },
  // Babel-based react-docgen reads the props tables of the autodocs pages
  // (react-docgen-typescript needs the TypeScript compiler API: toolchain.md §2.3).
  typescript: { reactDocgen: 'react-docgen' },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // The sidebar opens on the introduction, without Storybook's own onboarding list.
  features: { sidebarOnboardingChecklist: false },
  // The agent SDKs only the Sources stories import, bundled up front: found
  // midway through a test run instead, Vite re-optimizes and reloads the page
  // under a running play function.
  viteFinal: (vite) => ({
    ...vite,
    optimizeDeps: {
      ...vite.optimizeDeps,
      include: [
        ...(vite.optimizeDeps?.include ?? []),
        '@ag-ui/client',
        '@ag-ui/core',
        '@ag-ui/encoder',
        '@ai-sdk/react',
        '@openai/agents',
        '@opentelemetry/api',
        '@opentelemetry/otlp-transformer',
        '@opentelemetry/resources',
        '@opentelemetry/sdk-trace-base',
        'ai',
        'ai/test',
        'openai',
        'zod',
      ],
    },
  }),
};

export default config;
