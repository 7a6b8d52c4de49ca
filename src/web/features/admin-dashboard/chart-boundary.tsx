import { Component, type ReactNode } from 'react';

interface ChartBoundaryProps {
  /** Told once the plot failed (its code did not load, or it could not draw). */
  onError: () => void;
  children: ReactNode;
}

/**
 * Keeps a plot's failure to itself: the dashboard goes on, and its figure shows the numbers as a
 * table instead (a plot's code loads on demand and may not arrive offline).
 */
export class ChartBoundary extends Component<ChartBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error('A plot could not be drawn', error);
    this.props.onError();
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
