import { Trans } from '@lingui/react/macro'
import { Component, type ReactNode } from 'react'

/** A demo whose code could not be fetched (offline, or a newer release replaced it) says so instead of vanishing. */
export class DemoBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  render() {
    if (!this.state.failed) return this.props.children
    return (
      <div role="alert" className="rounded-xl border border-destructive/40 bg-destructive/5 p-5 text-sm">
        <Trans>The live demo could not load. Reload the page to try again.</Trans>
      </div>
    )
  }
}
