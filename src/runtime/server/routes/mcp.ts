import { defineEventHandler } from 'h3'
import { useMcpEndpoint } from '../use-endpoint'

export default defineEventHandler(event => useMcpEndpoint(event).serve(event))
