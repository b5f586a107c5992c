// Stands in for `ioredis` in builds for presets that cannot open TCP connections (Cloudflare
// Workers): keeps the Redis client out of their bundle. `connectRedisState` sees no client class
// and says that this platform cannot share state through Redis.
export const Redis = undefined
export default undefined
