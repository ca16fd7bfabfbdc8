use std::env;

/// A value of the process's env, parsed, or `default` when unset or unparsable.
pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

pub struct Settings {
    pub port: u16,
    pub workers: usize,
    pub log_level: String,
}

impl Settings {
    pub fn load() -> Self {
        Settings {
            port: env_or("APP_PORT", 8080),
            workers: env_or("APP_WORKERS", 4),
            log_level: env_or("APP_LOG_LEVEL", "info".to_string()),
        }
    }
}
