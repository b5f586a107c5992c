export default defineMcpResource({
  uri: 'docs://readme',
  description: 'What this server offers',
  mimeType: 'text/markdown',
  handler: () => '# Playground\n\nTools: echo, register, create_release, delete_project, connect_account.',
})
