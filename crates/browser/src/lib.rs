//! retroanim-browser: the model browser.
//!
//! A local HTTP server (axum) that runs the engines themselves — each open view holds
//! a live [`retroanim_core::DynSimulation`] built from a scenario, driven with the
//! engine's own scenario step ops — and serves an embedded page that draws the state
//! and sends inputs. The JSON API is documented in `docs/browser.md`.

mod api;
mod body;
mod download;
mod engines;
mod error;
pub mod es2;
mod figure;
mod gltf_export;
mod guard;
mod info;
pub mod limits;
mod paths;
mod server;
mod session;
mod static_files;
pub mod user_data;

pub use engines::{EngineDef, ExtraPathsFn, InfoFn, LoadFn, ENGINES};
pub use error::ApiError;
pub use limits::{Options, BODY_LIMIT};
pub use paths::Kind as AssetKind;
/// The page's files, for `retroanim export-site` (a static copy of the page).
pub use static_files::{FILES as STATIC_FILES, INDEX as INDEX_HTML};

use axum::extract::DefaultBodyLimit;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::routing::{get, post};
use axum::Router;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where the bundled sample assets are: `$RETROANIM_ASSETS` if set, else `./assets`
/// when it exists (a checkout's root), else the `assets/` folder of the source tree
/// this binary was built from.
pub fn default_assets_root() -> PathBuf {
    if let Some(p) = std::env::var_os("RETROANIM_ASSETS") {
        return PathBuf::from(p);
    }
    let here = PathBuf::from("assets");
    if here.is_dir() {
        return here;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

/// The whole application (API, page, static files) for the built-in engines.
pub fn router(assets_root: &Path) -> Router {
    router_with(&ENGINES, assets_root)
}

/// The application for a given engine table (tests use a stand-in engine).
pub fn router_with(engines: &'static [EngineDef], assets_root: &Path) -> Router {
    router_with_options(engines, assets_root, Options::default())
}

/// The application with given timeouts and concurrency bounds. The Host check needs
/// the bound address, so it is added by [`serve_listener_with`], not here.
pub fn router_with_options(
    engines: &'static [EngineDef],
    assets_root: &Path,
    opts: Options,
) -> Router {
    let body_timeout = opts.body_timeout;
    let state = api::AppState::new(engines, assets_root, opts);
    let api = Router::new()
        .route("/engines", get(api::list_engines))
        .route("/engines/{engine}/samples", get(api::list_samples))
        .route("/engines/{engine}/samples/{file}", get(api::get_sample))
        .route("/sessions", post(api::create_session))
        .route(
            "/sessions/{id}",
            get(api::get_session).delete(api::delete_session),
        )
        .route("/sessions/{id}/steps", post(api::apply_steps))
        .route("/sessions/{id}/reset", post(api::reset_session))
        .route("/sessions/{id}/lines", get(api::get_lines))
        .route("/sessions/{id}/trace", get(api::get_trace))
        .route("/sessions/{id}/scenario", get(api::get_scenario))
        .route("/sessions/{id}/assets", get(api::get_assets))
        .route("/sessions/{id}/figure", get(api::get_figure))
        .route("/sessions/{id}/gltf", get(api::get_gltf))
        .route("/ac/dat", get(api::get_ac_dat))
        .route("/ac/dat/figure", get(api::get_ac_dat_figure))
        .route("/sessions/{id}/meshes", get(api::get_meshes))
        .route("/sessions/{id}/update_motion", get(api::get_update_motion))
        .route("/herc/es2", get(api::get_es2))
        .fallback(api::api_not_found)
        .with_state(state);
    Router::new()
        .route("/", get(static_files::index))
        .route("/static/{*path}", get(static_files::file))
        .nest("/api", api)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(from_fn_with_state(body_timeout, guard::read_body))
        .layer(from_fn(guard::json_errors))
}

/// Serve on `host:port` until interrupted (Ctrl-C). Prints the URL; opens nothing.
pub fn serve(host: &str, port: u16, assets_root: &Path) -> anyhow::Result<()> {
    serve_with(host, port, assets_root, Options::default())
}

/// [`serve`] with given options (the user's files among them).
pub fn serve_with(host: &str, port: u16, assets_root: &Path, opts: Options) -> anyhow::Result<()> {
    use std::net::ToSocketAddrs;
    let addr = (host, port)
        .to_socket_addrs()
        .map_err(|e| anyhow::anyhow!("cannot listen on {host}:{port}: {e}"))?
        .next()
        .ok_or_else(|| anyhow::anyhow!("cannot listen on {host}:{port}: no address"))?;
    let listener =
        server::bind(addr).map_err(|e| anyhow::anyhow!("cannot listen on {host}:{port}: {e}"))?;
    let addr = listener.local_addr()?;
    let shown = if addr.ip().is_unspecified() {
        format!("http://127.0.0.1:{}/", addr.port())
    } else {
        format!("http://{addr}/")
    };
    println!("retroanim model browser: {shown}");
    eprintln!(
        "serving the assets under {} (Ctrl-C stops)",
        assets_root.display()
    );
    for e in ENGINES.iter() {
        let dir = engines::folder(assets_root, e);
        if !dir.is_dir() {
            eprintln!(
                "warning: {} is missing: the {} view cannot start (set RETROANIM_ASSETS to the assets folder)",
                dir.display(),
                e.name
            );
        }
    }
    if let Some(dat) = &opts.ac_dat {
        eprintln!(
            "AC DAT {}: {} motion tables, {} Setups (read-only)",
            dat.path.display(),
            dat.tables().len(),
            dat.setup_count()
        );
    }
    if let Some(es2) = &opts.es2 {
        eprintln!(
            "Earthsiege 2 folder {}: {} VOL archives, {} shapes (read-only)",
            es2.path.display(),
            es2.listing.vols.len(),
            es2.shape_count()
        );
        for p in es2.problems() {
            eprintln!("warning: {p}");
        }
    }
    serve_listener_with(listener, assets_root, opts)
}

/// Serve on an already bound listener (tests bind port 0 and read the address first).
/// Blocks until Ctrl-C.
pub fn serve_listener(listener: TcpListener, assets_root: &Path) -> anyhow::Result<()> {
    serve_listener_with(listener, assets_root, Options::default())
}

/// [`serve_listener`] with given timeouts and bounds.
pub fn serve_listener_with(
    listener: TcpListener,
    assets_root: &Path,
    opts: Options,
) -> anyhow::Result<()> {
    server::raise_backlog(&listener)?;
    listener.set_nonblocking(true)?;
    let hosts = Arc::new(guard::Hosts::for_addr(listener.local_addr()?));
    let app = router_with_options(&ENGINES, assets_root, opts.clone())
        .layer(from_fn_with_state(hosts, guard::check_host));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        server::run(listener, app, opts, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
        Ok(())
    })
}
