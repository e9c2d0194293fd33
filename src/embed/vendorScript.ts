/**
 * React and its DOM renderer as a classic script of their own (assets/embed-vendor.js, built by
 * vite.config.ts before the embed's script, which reads them from this global). The embed's two
 * scripts download together and run one after the other, each in a task of its own: React's
 * evaluation and the embed's were one task of 50–80 ms when they were one script.
 */
import * as React from 'react';
import * as JsxRuntime from 'react/jsx-runtime';
import * as ReactDOMClient from 'react-dom/client';

export { JsxRuntime, React, ReactDOMClient };
