//! The language server reads PGN with the one reader every front end shares:
//! [`crate::rules::pgn::movetext`], the span-tracking tokenizer.

pub use crate::rules::pgn::movetext::*;
