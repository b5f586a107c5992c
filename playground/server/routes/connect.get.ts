export default defineEventHandler(() => {
  return '<!doctype html><title>Connect</title><h1>Connect your account</h1><p>In a real app, the OAuth flow starts here.</p>'
})
