import { getRequestURL } from 'h3'

export default defineMcpTool({
  name: 'connect_account',
  description: 'Connects a third-party account through a page the user opens in their browser',
  async handler(_args, { event }) {
    const elicit = useMcpElicitation()
    // Secrets never go through a form: the person enters them on our own page instead.
    const page = new URL('/connect', getRequestURL(event).origin)
    // Form-only clients (the AI SDK's, so this playground's /chat) cannot open a page for the
    // person: say where to go instead of failing.
    if (!elicit.supports('url')) return `This client cannot open pages. Open ${page.href} in your browser to connect your account.`
    const result = await elicit.url({ message: 'Open this page to connect your account', url: page })
    return result.action === 'accept' ? 'Opened the connection page; finish there.' : `Not connected (${result.action}).`
  },
})
