import { describe, expect, it } from 'vitest';
import { isAllowedColour } from './css-colours.js';
import { sanitizeContentHtml } from './sanitize-html.js';

describe('the colour rule of block styles', () => {
  it.each([
    '#fff',
    '#1A2b3C',
    'rgb(255, 0, 0)',
    'rgb(10%,20%,30%)',
    'rgba(0, 0, 0, 0.5)',
    'rgba(0,0,0,50%)',
    'red',
    'RebeccaPurple',
    'lightgoldenrodyellow',
  ])('accepts %s', (colour) => {
    expect(isAllowedColour(colour)).toBe(true);
  });

  it.each([
    'expression(alert(1))',
    'url(javascript:alert(1))',
    'url(https://evil.example/x.png)',
    'var(--site-background)',
    'calc(1px + 2px)',
    'rgb(var(--x), 0, 0)',
    'rgb(1, 2)',
    '#ffff',
    '#12345',
    'transparent',
    'currentcolor',
    'notacolour',
    'red; position: fixed',
    '',
  ])('refuses %s', (colour) => {
    expect(isAllowedColour(colour)).toBe(false);
  });

  it('keeps an allowed colour in style and removes any other', () => {
    expect(sanitizeContentHtml('<p style="color: #c00; background-color: var(--x)">a</p>')).toBe(
      '<p style="color:#c00">a</p>',
    );
    expect(sanitizeContentHtml('<span style="background-color: rgb(1, 2, 3); color: url(x)">b</span>')).toBe(
      '<span style="background-color:rgb(1, 2, 3)">b</span>',
    );
  });

  it('drops every class, so a block cannot use the site’s utility classes to cover the page', () => {
    expect(sanitizeContentHtml('<p class="fixed inset-0 z-50 bg-white">covers nothing</p>')).toBe(
      '<p>covers nothing</p>',
    );
  });
});
