//! A game ended with the armies described in words, by a flag ("White flag falls. White has K
//! and R and black has K and N. Result?", "what if I only have king and bishop when his flag
//! drops?"), a resignation ("he resigned with king and queen against my king and rook") or a
//! second illegal move: the result decided by the mating chances of that material
//! ([`crate::rules::material`]), since each of the three loses only if the opponent could still
//! mate (6.9, 5.1.2, 7.5.5), worded for the people the question names. Without a position this
//! is the verdict for the material; the asker is offered the check of the actual position.

use std::sync::LazyLock;

use regex::Regex;

use crate::rulebook::Setting;
use crate::rules::material::{Army, MateChance, mate_chance};
use crate::text::capitalise_first;

use super::actors::{
    ASKER_HOLDS, Actor, FLAG_VERBS, OPPONENT_HOLDS, PieceKind, actor_word, named_asker,
    piece_letters, piece_word, subject,
};
use super::claims::Side;
use super::frame::Frame;

/// Someone a question names, in its own terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Party {
    Asker,
    Opponent,
    White,
    Black,
    /// "a flag fell" without saying whose: the player whose flag fell.
    Flagger,
    /// The opponent of the player whose flag fell.
    NotFlagger,
    /// "Player A" and "Player B", as arbiters' cases name them.
    PlayerA,
    PlayerB,
}

/// The terms a question names its players in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Terms {
    /// "I" and "my opponent".
    Relative,
    Colours,
    Letters,
    /// Nobody named: "a flag fell".
    Unnamed,
}

impl Party {
    fn other(self) -> Party {
        match self {
            Party::Asker => Party::Opponent,
            Party::Opponent => Party::Asker,
            Party::White => Party::Black,
            Party::Black => Party::White,
            Party::Flagger => Party::NotFlagger,
            Party::NotFlagger => Party::Flagger,
            Party::PlayerA => Party::PlayerB,
            Party::PlayerB => Party::PlayerA,
        }
    }

    fn terms(self) -> Terms {
        match self {
            Party::Asker | Party::Opponent => Terms::Relative,
            Party::White | Party::Black => Terms::Colours,
            Party::PlayerA | Party::PlayerB => Terms::Letters,
            Party::Flagger | Party::NotFlagger => Terms::Unnamed,
        }
    }

    fn of_side(s: Side) -> Party {
        match s {
            Side::White => Party::White,
            Side::Black => Party::Black,
        }
    }

    /// The party an actor word names, if a player.
    fn of_actor(a: Actor) -> Option<Party> {
        match a {
            Actor::Asker => Some(Party::Asker),
            Actor::Opponent => Some(Party::Opponent),
            Actor::White => Some(Party::White),
            Actor::Black => Some(Party::Black),
            _ => None,
        }
    }

    /// The subject of a sentence: "you", "your opponent", "White".
    fn name(self) -> &'static str {
        match self {
            Party::Asker => "you",
            Party::Opponent => "your opponent",
            Party::White => "White",
            Party::Black => "Black",
            Party::Flagger => "the player who ran out of time",
            Party::NotFlagger => "the opponent",
            Party::PlayerA => "Player A",
            Party::PlayerB => "Player B",
        }
    }

    /// "has", or "have" after "you".
    fn has(self) -> &'static str {
        if self == Party::Asker { "have" } else { "has" }
    }

    fn possessive(self) -> &'static str {
        match self {
            Party::Asker => "your",
            Party::Opponent => "your opponent's",
            Party::White => "White's",
            Party::Black => "Black's",
            Party::Flagger => "the",
            Party::NotFlagger => "the opponent's",
            Party::PlayerA => "Player A's",
            Party::PlayerB => "Player B's",
        }
    }

    /// "you have" / "White has" … before "lost on time".
    fn has_lost(self) -> String {
        format!("{} {}", self.name(), self.has())
    }

    /// "you lose" / "White loses".
    fn loses(self) -> String {
        let verb = if self == Party::Asker {
            "lose"
        } else {
            "loses"
        };
        format!("{} {verb}", self.name())
    }

    /// "wins" / "win" after the name.
    fn wins(self) -> String {
        let verb = if self == Party::Asker { "win" } else { "wins" };
        capitalise_first(&format!("{} {verb}", self.name()))
    }
}

/// How the game the question tells of ended; both are judged by one test since 2023: the
/// player who ran out of time or resigned loses only if the opponent could still mate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// A flag fell (6.9).
    Flag,
    /// A player resigned (5.1.2).
    Resignation,
    /// A player completed a second illegal move (7.5.5).
    SecondIllegalMove,
}

impl Ending {
    /// The article that decides the result.
    pub fn article(self) -> &'static str {
        match self {
            Ending::Flag => "6.9",
            Ending::Resignation => "5.1.2",
            Ending::SecondIllegalMove => "7.5.5",
        }
    }
}

/// A flag fall, a resignation or a second illegal move the question describes with the armies
/// on the board.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultByMaterial {
    ending: Ending,
    /// The player whose flag fell, who resigned, or who made the second illegal move: the one
    /// who loses if the opponent could still mate.
    defender: Party,
    /// The army of the defender's opponent (the one who might mate and win).
    mater: Army,
    /// The defender's army, when the question says.
    defender_army: Option<Army>,
    /// Rapid or blitz named: the same rule, said so.
    quick: bool,
    /// An Armageddon game: a draw on the board is Black's match win under the usual
    /// regulations.
    armageddon: bool,
    /// What bishops alone can do when the question says on which colours they run ("on the
    /// same colour": no mate at all; "opposite colours": a mate exists); undecided otherwise.
    bishop_colours_said: MateChance,
    /// The question names "Player 1" and "Player 2": the answer does too.
    numbered: bool,
    /// A parent's or coach's story: the verdict names their player, not "you".
    spoken_for: Option<SpokenFor>,
}

/// Everyone a question can name: an army said to be both players' is each one's.
const EVERY_PARTY: &[Party] = &[
    Party::White,
    Party::Black,
    Party::Asker,
    Party::Opponent,
    Party::Flagger,
    Party::NotFlagger,
    Party::PlayerA,
    Party::PlayerB,
];

/// The armies described after these words belong to White / Black / both.
const WHITE_HOLDS: &[&str] = &[
    "white flagged with ",
    "white ran out of time with ",
    "white lost on time with ",
    "white has ",
    "white had ",
    "white with ",
    "white only has ",
    "white: ",
];
const BLACK_HOLDS: &[&str] = &[
    "black flagged with ",
    "black ran out of time with ",
    "black lost on time with ",
    "black has ",
    "black had ",
    "black with ",
    "black only has ",
    "black: ",
];
const YOU_HOLD: &[&str] = &["you have ", "you only have ", "you had ", "you still have "];
const PLAYER_A_HOLDS: &[&str] = &["player a has ", "player a had ", "player a with "];
const PLAYER_B_HOLDS: &[&str] = &["player b has ", "player b had ", "player b with "];
const BOTH_HOLD: &[&str] = &[
    "both players have ",
    "both players had ",
    "both sides have ",
    "both sides had ",
    "both have ",
    "both had ",
    "each side has ",
    "each player has ",
];

/// How the story says the game ended, if by a flag, a resignation or a second illegal move
/// whose result the armies decide (not when both flags fell, the arbiter's call is questioned
/// or a quickplay-finish claim was made).
fn ending_told(lower: &str) -> Option<Ending> {
    if lower.contains("both flags") || lower.contains("both players ran out") {
        return None;
    }
    if questions_the_arbiters_call(lower) || quickplay_claim_made(lower) {
        return None;
    }
    if FLAG_VERBS.iter().any(|v| lower.contains(v)) || win_on_time_told(lower) {
        Some(Ending::Flag)
    } else if RESIGN_VERBS.iter().any(|v| lower.contains(v)) {
        Some(Ending::Resignation)
    } else if SECOND_ILLEGAL.iter().any(|v| lower.contains(v)) && !unfinished_move(lower) {
        Some(Ending::SecondIllegalMove)
    } else {
        None
    }
}

/// The defender named by colour, in the asker's own terms when the armies are told that way
/// ("I (black) timed out with…, the opponent (white) has…"). An army said to be both players',
/// "KN v KN", is everyone's: it names no terms.
fn in_the_askers_terms(
    defender: Party,
    armies: &[(usize, Party, Army)],
    asker_colour: Option<Party>,
) -> Party {
    let relative = armies.iter().any(|(at, o, _)| {
        o.terms() == Terms::Relative
            && !armies
                .iter()
                .any(|(at2, o2, _)| at2 == at && o2.terms() == Terms::Colours)
    });
    match (defender.terms(), relative) {
        (Terms::Colours, true) => {
            in_terms_of(defender, Party::Asker, asker_colour).unwrap_or(defender)
        }
        _ => defender,
    }
}

impl ResultByMaterial {
    /// Reads a question that says how a game ended (whose flag fell, who resigned, who made a
    /// second illegal move) and what the other player had. Questions under other rules (US
    /// Chess, online servers) or about both flags are left to the rulings.
    pub fn read(frame: &Frame) -> Option<ResultByMaterial> {
        // "FIDE rated rapid … a guy says under USCF it would be a draw": the game named FIDE
        // is judged by the Laws, whatever other rules it is compared with.
        if frame
            .settings
            .iter()
            .any(|s| matches!(s, Setting::UsChess | Setting::Online))
            && !frame.lower.contains("fide")
        {
            return None;
        }
        // "Player 1" and "Player 2" are read as the lettered players, and named back as written.
        let numbered = frame.lower.contains("player 1") && frame.lower.contains("player 2");
        let lettered = numbered.then(|| {
            frame
                .lower
                .replace("player 1", "player a")
                .replace("player 2", "player b")
        });
        let lower = lettered.as_ref().unwrap_or(&frame.lower);
        let ending = ending_told(lower)?;
        // Rewritten only for a question that names a flag: they keep every flag word.
        let first_person = for_the_player(lower);
        let spoken_for = first_person.as_ref().map(|(_, player)| *player);
        let lower = first_person.as_ref().map_or(lower, |(text, _)| text);
        let flagged_with = army_beside_the_flag(lower);
        let lower = flagged_with.as_ref().unwrap_or(lower);
        let owned_after = armies_owned_after(lower);
        let lower = owned_after.as_ref().unwrap_or(lower);
        if no_flag_fell(lower) || game_over_on_the_board(lower) {
            return None;
        }
        // "The opponent (white) has a bishop": the colour in brackets is read by `named_asker`.
        let armies = armies(&glued_matchups_split(&without_square_colours(
            &lower.replace(" (white)", "").replace(" (black)", ""),
        )));
        let asker_colour = named_asker(lower).map(Party::of_side);
        // The last description of a player's army is the one asked about ("I know it is a
        // draw with a bare king, but what if I have king and bishop?").
        let army_of = |p: Party| {
            armies
                .iter()
                .filter(|(_, owner, _)| in_terms_of(*owner, p, asker_colour) == Some(p))
                .max_by_key(|(at, _, _)| *at)
                .map(|(_, _, army)| *army)
        };
        // A rule recalled first ("if your opponent runs out of time…, but I lost on time")
        // names another flag than the one that fell: the flag whose opponent's army is
        // described is the one asked about.
        let stated = without_supposed_last_flag(lower);
        let defender = match ending {
            Ending::Flag => [stated, last_flag_sentence(stated)]
                .into_iter()
                .map(flagged_party)
                .find(|p| p.is_some_and(|p| army_of(p.other()).is_some()))??,
            Ending::Resignation => resigned_party(lower)?,
            Ending::SecondIllegalMove => second_offender(lower)?,
        };
        let defender = in_the_askers_terms(defender, &armies, asker_colour);
        // "He took my last pawn": what the story says was captured afterwards is gone.
        let after_captures =
            |p: Party| army_of(p).map(|army| without_last_captured(army, lower, p == Party::Asker));
        let mater = after_captures(defender.other())?;
        let settings = &frame.settings;
        Some(ResultByMaterial {
            ending,
            defender,
            mater,
            defender_army: after_captures(defender),
            quick: settings.contains(&Setting::Rapid) || settings.contains(&Setting::Blitz),
            armageddon: settings.contains(&Setting::Armageddon),
            bishop_colours_said: bishop_colours_said(lower),
            numbered,
            spoken_for,
        })
    }

    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// The answer: the result first, then why, then what the position can change.
    pub fn paragraph(&self) -> String {
        let text = self.paragraph_lettered();
        if self.numbered {
            text.replace("Player A", "Player 1")
                .replace("Player B", "Player 2")
        } else {
            text
        }
    }

    /// Bishops that the question says all run on one colour, and nothing else on the board
    /// that could ever be mated or hem a king in: several bishops of one colour (two promoted
    /// to the same colour, say) can never checkmate, whoever has them.
    fn bishops_all_on_one_colour(&self) -> bool {
        let only_bishops = |a: &Army| a.queens + a.rooks + a.knights + a.pawns == 0;
        self.bishop_colours_said == MateChance::Impossible
            && only_bishops(&self.mater)
            && self.mater.bishops > 0
            && self.defender_army.as_ref().is_some_and(only_bishops)
    }

    /// Whether the defender's opponent could mate (`None`: it depends on an army the question
    /// does not give), and whether the bishops' colours decide it.
    fn chance(&self) -> (Option<MateChance>, bool) {
        // The defender's army counts only against a lone minor piece.
        let chance = match self.defender_army {
            Some(defender) => Some(mate_chance(&self.mater, &defender)),
            None if self.mater.lone_minor() => None,
            None => Some(mate_chance(&self.mater, &Army::bare())),
        };
        let one_colour = self.bishops_all_on_one_colour();
        let by_colours = chance == Some(MateChance::DependsOnBishopColours) || one_colour;
        let chance = match chance {
            Some(MateChance::DependsOnBishopColours) => Some(self.bishop_colours_said),
            _ if one_colour => Some(MateChance::Impossible),
            c => c,
        };
        (chance, by_colours)
    }

    /// Whether the ending gives a draw (`Some(true)`) or a win (`Some(false)`); `None` when
    /// that depends on what the question leaves open.
    pub fn drawn(&self) -> Option<bool> {
        match self.chance().0? {
            MateChance::Impossible => Some(true),
            MateChance::Possible => Some(false),
            MateChance::DependsOnBishopColours => None,
        }
    }

    fn paragraph_lettered(&self) -> String {
        let mut text = self.verdict();
        if let Some(player) = self.spoken_for {
            text = player.retell(&text);
        }
        // A lone king never mates, whatever the position: there is nothing to check.
        if !self.mater.is_bare() {
            text.push_str(" The arbiter judges the actual position: give it as FEN or PGN and I will check whether a mate is still possible.");
        }
        text
    }

    /// The verdict: a flag fall, a resignation and a second illegal move all lose only if the
    /// opponent could still mate; what differs is how each is told.
    fn verdict(&self) -> String {
        let ended = self.how_it_ended();
        let with = format!(
            "{} {}",
            self.defender.other().possessive(),
            army_words(&self.mater)
        );
        let (chance, by_colours) = self.chance();
        let mut text = match chance {
            Some(MateChance::Impossible) if by_colours => self.dead_already(&ended),
            Some(MateChance::Impossible) => self.no_mate(&ended, &with),
            Some(MateChance::DependsOnBishopColours) => self.bishops_decide(&ended),
            Some(MateChance::Possible) => self.mate_possible(&ended, &with),
            None => self.unknown_defender(&ended, &with),
        };
        text.push_str(self.setting_note());
        text
    }

    /// "your flag fell", "you resigned", "you completed a second illegal move".
    fn how_it_ended(&self) -> String {
        let player = self.defender;
        match self.ending {
            Ending::Flag => format!("{} flag fell", player.possessive()),
            Ending::Resignation => format!("{} resigned", player.name()),
            Ending::SecondIllegalMove => {
                format!("{} completed a second illegal move", player.name())
            }
        }
    }

    /// Every bishop on one colour: the game was drawn before it ended that way.
    fn dead_already(&self, ended: &str) -> String {
        let already = "It is a draw: with every bishop on squares of one colour neither side can ever checkmate, so the position was dead and the game already drawn (5.2.2)";
        match self.ending {
            Ending::Flag => format!("{already}; {ended} too late to matter (6.9)."),
            Ending::Resignation | Ending::SecondIllegalMove => {
                format!("{already} before {ended}.")
            }
        }
    }

    /// The opponent could not mate: a draw.
    fn no_mate(&self, ended: &str, with: &str) -> String {
        let why = impossible_why(&self.mater);
        match self.ending {
            Ending::Flag => format!(
                "It is a draw: {ended}, but {with} cannot checkmate by any series of legal moves, and only a player who could mate wins on time (6.9). {why}"
            ),
            Ending::Resignation => format!(
                "It is a draw: {ended}, but {with} cannot checkmate by any series of legal moves, and since 2023 a resignation then gives a draw, not a loss (5.1.2). {why} Sources that say every resignation loses describe the rules before 2023."
            ),
            Ending::SecondIllegalMove => format!(
                "It is a draw: {ended}, which normally loses, but {with} cannot checkmate by any series of legal moves, and then the game is drawn instead (7.5.5). {why}"
            ),
        }
    }

    /// The opponent could still mate: a win.
    fn mate_possible(&self, ended: &str, with: &str) -> String {
        let wins = self.defender.other().wins();
        match self.ending {
            Ending::Flag => format!(
                "{wins}: {ended}, and {with} could still checkmate by some series of legal moves, however unlikely (a helpmate is enough), which is all that 6.9 asks, so {} lost on time. {}",
                self.defender.has_lost(),
                possible_why(&self.mater, self.defender)
            ),
            Ending::Resignation => format!(
                "{wins}: {ended}, and {with} could still checkmate by some series of legal moves, so the resignation stands: {} (5.1.2). Who stood better on the board does not matter: a resignation is only a draw when no mate is possible at all.",
                self.defender.loses(),
            ),
            Ending::SecondIllegalMove => format!(
                "{wins}: {ended}, which loses the game, and {with} could still checkmate by some series of legal moves, so the exception for a position without mate does not apply (7.5.5)."
            ),
        }
    }

    /// What the kind of game adds: the same rule in rapid and blitz, Armageddon's draw odds.
    fn setting_note(&self) -> &'static str {
        match self.ending {
            Ending::Flag if self.armageddon => {
                " In Armageddon the flag rule is the same (6.9); what a drawn game means for the match is set by the event's regulations, which usually count it as a win for Black (10.1)."
            }
            Ending::Flag if self.quick => " The same rule holds in rapid and blitz (A.5.3).",
            Ending::SecondIllegalMove if self.quick => {
                " In rapid and blitz the second illegal move loses too (A.3); without full supervision it must be claimed, or seen by the arbiter, before the opponent makes his or her next move (A.5.2)."
            }
            _ => "",
        }
    }

    /// The verdict when only the colours of the bishops' squares decide whether a mate exists;
    /// `ended`: how the game ended ("your flag fell", "you resigned").
    fn bishops_decide(&self, ended: &str) -> String {
        format!(
            "It depends on the bishops: {ended}, and if all the bishops run on squares of one colour no mate is possible, so it is a draw; if the two sides' bishops stand on squares of opposite colours, a mate exists with the defending bishop hemming its own king in, so {} ({}).",
            self.wins_lower(self.defender.other()),
            self.ending.article()
        )
    }

    /// The player who might mate has a lone minor piece, the other army unknown.
    fn unknown_defender(&self, fell: &str, with: &str) -> String {
        let mater = self.defender.other();
        let helpers = if self.mater.knights == 1 {
            "a pawn, a knight, a bishop or a rook"
        } else {
            "a pawn, a knight, or a bishop running on the other colour from yours"
        };
        let (who, has) = (self.defender.name(), self.defender.has());
        format!(
            "It depends on what {who} still {has}: {fell}, and against a bare king {with} cannot mate, so it is a draw; but if {who} {has} {helpers}, a mate exists with that man hemming in its own king, so {} ({}).",
            self.wins_lower(mater),
            self.ending.article()
        )
    }

    fn wins_lower(&self, mater: Party) -> String {
        let w = mater.wins();
        match mater.terms() {
            Terms::Relative | Terms::Unnamed => w.to_lowercase(),
            Terms::Colours | Terms::Letters => w,
        }
    }
}

/// `army` without the kind of man the story says was taken as the owner's last one ("he took my
/// last pawn", "I captured his last knight"); `asker`: the army is the asker's ("my").
fn without_last_captured(mut army: Army, lower: &str, asker: bool) -> Army {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(?:took|takes|taken|captured|captures|won|wins|grabbed|ate)\s+(my|his|her|their)\s+last\s+(pawn|knight|bishop|rook|queen)\b")
            .expect("valid regex")
    });
    for c in RE.captures_iter(lower) {
        if (&c[1] == "my") != asker {
            continue;
        }
        match &c[2] {
            "pawn" => army.pawns = 0,
            "knight" => army.knights = 0,
            "bishop" => army.bishops = 0,
            "rook" => army.rooks = 0,
            _ => army.queens = 0,
        }
    }
    army
}

/// Every flag the question names is only supposed, for nobody in particular ("we have to play
/// on until somebody claims or runs out of time"), or only aimed at ("he is just trying to flag
/// him", "playing for the flag"): no flag fell.
fn no_flag_fell(lower: &str) -> bool {
    const ANYBODY: &[&str] = &[
        "somebody",
        "someone",
        "anybody",
        "anyone",
        "one of us",
        "either of us",
        "whoever",
        "either player",
        "a player",
    ];
    let mut named = FLAG_VERBS
        .iter()
        .flat_map(|v| lower.match_indices(v).map(|(at, _)| at))
        .peekable();
    named.peek().is_some()
        && named.all(|at| {
            let before = &lower[..at];
            // Aimed at or foreseen: "trying to flag him", "playing for the flag", "he
            // thought he'd flag anyway".
            if [
                "to ", "for the ", "for a ", "'d ", "would ", "might ", "will ", "'ll ",
            ]
            .iter()
            .any(|aim| before.ends_with(aim))
            {
                return true;
            }
            let clause_start = lower[..at]
                .rfind(['.', '?', '!', ';', ','])
                .map_or(0, |i| i + 1);
            let clause =
                &lower[lower.floor_char_boundary(clause_start.max(at.saturating_sub(40)))..at];
            // The last one named before the flag is its owner: "somebody said if his flag…"
            // supposes nothing.
            let Some(anybody) = ANYBODY.iter().filter_map(|a| clause.rfind(a)).max() else {
                return false;
            };
            !crate::text::words(&clause[anybody..])
                .skip(1)
                .any(|w| actor_word(w).is_some())
        })
}

/// The story ends the game on the board as well ("he played a queen move that stalemated me",
/// "I mated him"): whether the mate or stalemate or the flag came first decides, which the
/// rulings answer; the material alone does not.
fn game_over_on_the_board(lower: &str) -> bool {
    const ENDED: &[&str] = &[
        "stalemated",
        "checkmated me",
        "checkmated him",
        "checkmated her",
        "mated me",
        "mated him",
        "mated her",
        "gave mate",
        "gave checkmate",
        "delivered mate",
        "delivered checkmate",
        "the stalemate",
        "it was stalemate",
        "was a stalemate",
    ];
    ENDED.iter().any(|e| lower.contains(e))
}

/// A chat-style flag story whose army is told a few words after the flag ("flagged in a 3+0
/// blitz with K+P vs his K+N", "I lost on time in round 5 with a rook"), or whose subject is
/// left out at the start ("flagged with …" is the asker's): the army is the flagger's, written
/// as the reading of armies expects it ("i flagged with k+p …").
fn army_beside_the_flag(lower: &str) -> Option<String> {
    static BESIDE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"\b(flagged|timed out|lost on time|ran out of time) (?:in|at|during|on) [^.,;?!]{0,40}? with ",
        )
        .expect("valid regex")
    });
    const UNSAID_ASKER: [&str; 4] = ["flagged", "timed out", "lost on time", "ran out of time"];
    let trimmed = lower.trim_start();
    let opens_with_flag = UNSAID_ASKER.iter().any(|v| trimmed.starts_with(v));
    if !opens_with_flag && !BESIDE.is_match(lower) {
        return None;
    }
    let mut text = BESIDE.replace_all(lower, "$1 with ").into_owned();
    if opens_with_flag {
        text = format!(" i {}", text.trim_start());
    }
    Some(text)
}

/// Armies whose owners are said after them ("king and two knights for me against a bare king
/// for him"), written as the reading of armies expects them ("i had king and two knights
/// against a bare king").
fn armies_owned_after(lower: &str) -> Option<String> {
    static OWNED_AFTER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"([a-z0-9+ ]{3,80}?) for (me|him|her|my opponent) (against|vs\.?|versus|v) ([a-z0-9+ ]{3,60}?) for (me|him|her|my opponent)\b",
        )
        .expect("valid regex")
    });
    const ARMY_OPENINGS: &[&str] = &[
        "king", "k+", "queen", "rook", "bishop", "knight", "pawn", "a ", "the ", "only", "bare",
        "lone", "two ", "three ",
    ];
    let c = OWNED_AFTER.captures(lower)?;
    let owner = match (&c[2], &c[5]) {
        ("me", "him" | "her" | "my opponent") => "i had",
        ("him" | "her" | "my opponent", "me") => "my opponent had",
        _ => return None,
    };
    // The story before the first army ("we were down to …") stays as it is.
    let told = c.get(1)?;
    let army_at = ARMY_OPENINGS
        .iter()
        .filter_map(|w| {
            told.as_str()
                .match_indices(w)
                .map(|(i, _)| i)
                .find(|&i| i == 0 || told.as_str().as_bytes()[i - 1] == b' ')
        })
        .min()?;
    let whole = c.get(0)?;
    Some(format!(
        "{} {owner} {} against {}{}",
        &lower[..told.start() + army_at],
        &told.as_str()[army_at..],
        &c[4],
        &lower[whole.end()..]
    ))
}

/// A parent's or coach's story told as the player's own ("my son had king and bishop, the
/// other boy's flag fell" → "i had king and bishop, my opponent's flag fell"), so that the
/// armies and the flag are read for the player the asker speaks for; `None` when no such
/// player is named.
fn for_the_player(lower: &str) -> Option<(String, SpokenFor)> {
    const PLAYER: &[&str] = &[
        "my son",
        "my daughter",
        "my child",
        "my kid",
        "my student",
        "my pupil",
    ];
    const OTHER: &[&str] = &[
        "the other boy",
        "the other girl",
        "the other kid",
        "the other child",
        "the other player",
        "his opponent",
        "her opponent",
    ];
    static HE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\b(he|his|him|he's)\b").expect("valid regex"));
    static SHE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\b(she|her|she's)\b").expect("valid regex"));
    let Some(player) = PLAYER.iter().find(|p| lower.contains(*p)) else {
        return told_of_a_player(lower);
    };
    let mut text = lower
        .replace(&format!("{player}'s"), "my")
        .replace(player, "i");
    for other in OTHER {
        text = text.replace(other, "my opponent");
    }
    // The pronouns of a son or a daughter are the player's own ("her flag fell").
    let pronouns = match *player {
        "my son" => Some(&*HE),
        "my daughter" => Some(&*SHE),
        _ => None,
    };
    if let Some(pronoun) = pronouns {
        text = in_first_person(&text, pronoun);
    }
    Some((text, SpokenFor::of(player)))
}

/// `text` with the pronouns `pronouns` matches (a capture group of "he", "his", "she", …)
/// turned into the first person ("her flag fell" → "my flag fell").
fn in_first_person(text: &str, pronouns: &Regex) -> String {
    pronouns
        .replace_all(text, |c: &regex::Captures| match &c[1] {
            "he" | "she" => "i",
            "he's" | "she's" => "i'm",
            "him" => "me",
            _ => "my",
        })
        .into_owned()
}

/// Whether the story has a first person in it ("I", "my", "we"…): its "he" and "she" are then
/// the others at the board, not the player it is told of.
fn told_in_first_person(lower: &str) -> bool {
    static FIRST_PERSON: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(i|me|my|mine|i'm|i've|i'd|we|our|us)\b").expect("valid regex")
    });
    FIRST_PERSON.is_match(lower)
}

/// A story told of somebody else, with no first person in it ("his flag fell; he had king
/// and bishop, his opponent only a knight"): "he" is the player and "his opponent" the other,
/// read as [`for_the_player`] reads a son's game and answered about "him".
fn told_of_a_player(lower: &str) -> Option<(String, SpokenFor)> {
    static PRONOUN: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\b(he|his|him|he's|she|her|she's)\b").expect("valid regex"));
    if told_in_first_person(lower) {
        return None;
    }
    let (other, spoken_for) = if lower.contains("his opponent") {
        ("his opponent", SpokenFor::HE)
    } else if lower.contains("her opponent") {
        ("her opponent", SpokenFor::SHE)
    } else {
        return None;
    };
    // "my opponent" holds no pronoun, so the rewriting below leaves it as it is.
    let text = lower.replace(other, "my opponent");
    Some((in_first_person(&text, &PRONOUN), spoken_for))
}

/// The player a parent or coach asks for: the answer names that player ("your son wins: his
/// opponent's flag fell") where it would otherwise say "you".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SpokenFor {
    /// "your son", "your student".
    noun: &'static str,
    /// "his", "her", "their".
    pronoun: &'static str,
}

impl SpokenFor {
    /// A player the question speaks of as "he".
    const HE: SpokenFor = SpokenFor {
        noun: "he",
        pronoun: "his",
    };
    const SHE: SpokenFor = SpokenFor {
        noun: "she",
        pronoun: "her",
    };

    fn of(player: &str) -> SpokenFor {
        let noun = match player {
            "my son" => "your son",
            "my daughter" => "your daughter",
            "my kid" => "your kid",
            "my student" => "your student",
            "my pupil" => "your pupil",
            _ => "your child",
        };
        let pronoun = match player {
            "my son" => "his",
            "my daughter" => "her",
            _ => "their",
        };
        SpokenFor { noun, pronoun }
    }

    /// A verdict written to the asker ("You win: your opponent's flag fell…") written about the
    /// player instead.
    fn retell(self, text: &str) -> String {
        let (noun, pronoun) = (self.noun, self.pronoun);
        let opponent = format!("{pronoun} opponent");
        // The possessives first: the subjects put in ("your son") are not touched again.
        let replacements = [
            ("Your opponent", capitalise_first(&opponent)),
            ("your opponent", opponent.clone()),
            ("from yours", format!("from {pronoun}s")),
            ("your ", format!("{pronoun} ")),
            ("You win", format!("{} wins", capitalise_first(noun))),
            ("you win", format!("{noun} wins")),
            ("you have lost", format!("{noun} has lost")),
            ("you lose", format!("{noun} loses")),
            ("you resigned", format!("{noun} resigned")),
            ("you completed", format!("{noun} completed")),
            ("you still have", format!("{noun} still has")),
            ("if you have", format!("if {noun} has")),
        ];
        replacements
            .iter()
            .fold(text.to_string(), |t, (from, to)| t.replace(from, to))
    }
}

/// The question without the colour of a bishop's squares ("two light-squared bishops" →
/// "two bishops"), so that the army is read; [`bishop_colours_said`] reads the colours.
fn without_square_colours(lower: &str) -> String {
    SQUARE_COLOUR.replace_all(lower, "$2").into_owned()
}

/// A bishop named with the colour of its squares ("light-squared bishop", "dark square bishops").
static SQUARE_COLOUR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(light|dark|white|black)[- ]squared?\s+(bishops?)\b").expect("valid regex")
});

/// The bishops' colours from their names alone: two bishops named on light squares ("king and
/// light-squared bishop against king and light-squared bishop") run on one colour; a light and
/// a dark one on both.
fn square_colours_named(lower: &str) -> MateChance {
    let (mut light, mut dark) = (0, 0);
    for c in SQUARE_COLOUR.captures_iter(lower) {
        let count = if c[2].ends_with('s') { 2 } else { 1 };
        match &c[1] {
            "light" | "white" => light += count,
            _ => dark += count,
        }
    }
    match (light, dark) {
        (0, 0) => MateChance::DependsOnBishopColours,
        (_, 0) | (0, _) if light + dark >= 2 => MateChance::Impossible,
        (l, d) if l > 0 && d > 0 => MateChance::Possible,
        _ => MateChance::DependsOnBishopColours,
    }
}

/// The bishops' colours when the question says them.
fn bishop_colours_said(lower: &str) -> MateChance {
    const SAME: &[&str] = &[
        "same colour",
        "same color",
        "same-colour",
        "same-color",
        "same coloured",
        "same colored",
        "same-coloured",
        "same-colored",
        "light-squared bishops",
        "light squared bishops",
        "dark-squared bishops",
        "dark squared bishops",
        "light-square bishops",
        "dark-square bishops",
    ];
    const OPPOSITE: &[&str] = &[
        "opposite colour",
        "opposite color",
        "opposite-colour",
        "opposite-color",
        "different colour",
        "different color",
        "opposite coloured",
        "opposite-coloured",
        "opposite colored",
        "opposite-colored",
    ];
    let says = |list: &[&str]| list.iter().any(|p| lower.contains(p));
    match (says(SAME), says(OPPOSITE)) {
        (true, false) => MateChance::Impossible,
        (false, true) => MateChance::Possible,
        (false, false) => square_colours_named(lower),
        (true, true) => MateChance::DependsOnBishopColours,
    }
}

/// Why a side with this army cannot mate (the defender's army is known and does not help).
fn impossible_why(mater: &Army) -> &'static str {
    if mater.is_bare() {
        "A lone king can never give checkmate."
    } else if mater.knights == 1 {
        "A lone knight mates only a king hemmed in by its own men, and a queen beside that king would simply take the knight."
    } else {
        "A lone bishop mates only a king hemmed in by its own men, and a rook or queen beside that king would block the check or take the bishop."
    }
}

/// How a mate remains possible.
fn possible_why(mater: &Army, defender: Party) -> String {
    if mater.lone_minor() {
        let piece = if mater.knights == 1 {
            "knight"
        } else {
            "bishop"
        };
        format!(
            "A lone {piece} cannot force mate, but a mate exists with {} own men hemming in the king; whether it could be forced does not matter.",
            defender.possessive()
        )
    } else {
        "Whether the mate could be forced does not matter.".to_string()
    }
}

/// Whose flag fell, by the first flag the text names; `None` when it names someone who is
/// no player.
fn flagged_party(lower: &str) -> Option<Party> {
    let resolved = pronoun_flag_by_colour(lower);
    let lower = resolved.as_deref().unwrap_or(lower);
    let flag_named = FLAG_VERBS.iter().any(|v| lower.contains(v));
    if !flag_named {
        return winner_on_time(lower).map(Party::other);
    }
    // "… my flag fell. Isn't a flag a flag?": a flag in general ("a flag") has no owner, and
    // a closing question about flags names none; the story before it does.
    let owned = lower.replace(" a flag", " a banner");
    let owner = subject(&owned, FLAG_VERBS).or_else(|| {
        let story = &owned[..owned.len() - last_flag_sentence(&owned).len()];
        subject(story, FLAG_VERBS)
    });
    match (lettered_flag(lower).or_else(|| generic_you(lower)), owner) {
        (Some(p), _) => Some(p),
        // "My opponent called 'Flag!'": the one who calls it is not the one whose flag fell.
        (None, Some(actor)) if flag_called(lower) => Party::of_actor(actor).map(Party::other),
        (None, Some(actor)) => Party::of_actor(actor),
        (None, None) => Some(Party::Flagger),
    }
}

/// A story told without "I" about White and Black, with a flag owned by a pronoun ("Black
/// takes the queen, then points out that her own flag has fallen"): the pronoun's flag named
/// by the colour that is the subject of its sentence (the first colour there that is not a
/// possessive). `None` when the story has a first person, or no such colour.
fn pronoun_flag_by_colour(lower: &str) -> Option<String> {
    const PRONOUN_FLAGS: &[&str] = &[
        "his own flag",
        "her own flag",
        "their own flag",
        "his flag",
        "her flag",
        "their flag",
    ];
    if told_in_first_person(lower) {
        return None;
    }
    let (at, phrase) = PRONOUN_FLAGS
        .iter()
        .filter_map(|p| lower.find(p).map(|at| (at, *p)))
        .min_by_key(|(at, _)| *at)?;
    let sentence_start =
        crate::text::last_sentence_end(&lower[..at], &['.', '!', '?']).unwrap_or(0);
    let colour =
        crate::text::words(&lower[sentence_start..at]).find(|w| matches!(*w, "white" | "black"))?;
    Some(format!(
        "{}{colour}'s flag{}",
        &lower[..at],
        &lower[at + phrase.len()..]
    ))
}

/// Whether the first flag named is one somebody calls or claims, without saying whose ("he
/// called, 'Flag!'", "she claimed flag"): a possessive ("he called my flag") names the owner.
fn flag_called(lower: &str) -> bool {
    const CALLING: &[&str] = &[
        "called", "calls", "call", "claimed", "claims", "shouted", "yelled",
    ];
    let Some(at) = FLAG_VERBS.iter().filter_map(|v| lower.find(v)).min() else {
        return false;
    };
    let before = lower[..at].trim_end_matches(|c: char| !c.is_alphanumeric());
    let last_word = before
        .rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default();
    CALLING.contains(&last_word)
}

/// "The arbiter stopped the clock and declared I lost on time — I thought only the opponent
/// can claim a flag?": the question is whether the arbiter may call it, which the rulings
/// answer, not who wins on the material.
fn questions_the_arbiters_call(lower: &str) -> bool {
    const DOUBTING: &[&str] = &[
        "only the opponent can",
        "only my opponent can",
        "only the player",
        "only players can",
        "only a player can",
        "can the arbiter",
        "can the td",
        "is the arbiter allowed",
        "was the arbiter allowed",
        "supposed to stay out",
        "can he do that",
        "can she do that",
        "can they do that",
        "is that allowed",
        "was this allowed",
        "was that allowed",
    ];
    (lower.contains("arbiter") || lower.contains(" td "))
        && DOUBTING.iter().any(|d| lower.contains(d))
}

/// A draw claimed under Guidelines III before the flag fell ("I claimed he could not win by
/// normal means, the arbiter watched, then my flag fell"): the arbiter then rules on the claim
/// (III.5.2), not on the material alone, so the story is left to the rulings.
fn quickplay_claim_made(lower: &str) -> bool {
    const GROUNDS: &[&str] = &[
        "iii.4",
        "iii.5",
        "iii.6",
        "normal means",
        "not trying",
        "no effort",
        "making no attempt",
        "shuffling",
        "quickplay",
        "quick play",
        "losing chances",
        "10.2",
        "postpone",
        "decide later",
        "arbiter waited",
        "arbiter watched",
    ];
    lower.contains("claim") && GROUNDS.iter().any(|g| lower.contains(g))
}

/// Words that say a player made an illegal move for the second time.
const SECOND_ILLEGAL: &[&str] = &[
    "second illegal",
    "2nd illegal",
    "another illegal",
    "illegal move again",
    "again plays an illegal",
    "again played an illegal",
    "again makes an illegal",
    "again made an illegal",
    "two illegal moves",
    "2 illegal moves",
];

/// Who made the second illegal move: the subject where the story first says so ("he made his
/// 2nd illegal move. I claimed expecting the win (2nd illegal move = loss right?)" is his).
fn second_offender(lower: &str) -> Option<Party> {
    let at = SECOND_ILLEGAL.iter().filter_map(|v| lower.find(v)).min()?;
    let end = lower[at..]
        .find(['.', '?', '!', ';', '\n'])
        .map_or(lower.len(), |i| at + i + 1);
    let start = lower[..at]
        .rfind(['.', '?', '!', ';', '\n', '('])
        .map_or(0, |i| i + 1);
    Party::of_actor(subject(&lower[start..end], SECOND_ILLEGAL)?)
}

/// The move said not to have been completed ("…but I had not pressed the clock"): whether it
/// counts at all is the question, which the rulings answer (7.5.1).
fn unfinished_move(lower: &str) -> bool {
    const UNFINISHED: &[&str] = &[
        "not pressed",
        "hadn't pressed",
        "had not pressed",
        "didn't press",
        "did not press",
        "before press",
        "before he press",
        "before she press",
        "before i press",
        "without pressing",
        "not completed",
        "wasn't completed",
    ];
    UNFINISHED.iter().any(|u| lower.contains(u))
}

/// Words for giving up the game.
const RESIGN_VERBS: &[&str] = &["resign", "gave up", "give up", "gives up", "conceded"];

/// Who resigned: the subject of the resigning verb ("resignation" is no verb), when it names a
/// player.
fn resigned_party(lower: &str) -> Option<Party> {
    const RESIGNING: &[&str] = &[
        "resigned", "resigns", "resign ", "resign?", "resign.", "resign,", "gave up", "give up",
        "gives up", "conceded",
    ];
    if lower.contains("you resign") {
        return Some(Party::Asker);
    }
    Party::of_actor(subject(lower, RESIGNING)?)
}

/// Winning on time named without a flag ("my opponent has 3 seconds, can I win on time?"):
/// the winner's opponent is the one whose flag is to fall.
const WIN_ON_TIME: &[&str] = &[
    "win on time",
    "wins on time",
    "won on time",
    "winning on time",
];

/// Whether the story tells of a win on time, not only of trying for one ("he was trying to win
/// on time" tells of no flag: the question is about the claim against it).
fn win_on_time_told(lower: &str) -> bool {
    const INTENT: &[&str] = &[
        "trying to",
        "try to",
        "tries to",
        "tried to",
        "hoping to",
        "hope to",
        "hopes to",
        "wants to",
        "wanted to",
        "want to",
        "attempting to",
        "playing to",
        "play to",
        "playing for a",
        "play for a",
        "going for a",
    ];
    WIN_ON_TIME.iter().any(|phrase| {
        lower.match_indices(phrase).any(|(at, _)| {
            let before = lower[..at].trim_end();
            !INTENT.iter().any(|i| before.ends_with(i))
        })
    })
}

/// The party that would win on time, when the question names one.
fn winner_on_time(lower: &str) -> Option<Party> {
    subject(lower, WIN_ON_TIME).and_then(Party::of_actor)
}

/// The story without a closing question that supposes another flag ("His flag fell and I
/// claimed. … Would it have been the same if it was MY flag?"): the flag that fell is the one
/// to judge first. The whole text when the last flag is not supposed, or is the only one.
fn without_supposed_last_flag(lower: &str) -> &str {
    let sentence = last_flag_sentence(lower);
    let start = lower.len() - sentence.len();
    let Some(flag_at) = FLAG_VERBS.iter().filter_map(|v| sentence.rfind(v)).max() else {
        return lower;
    };
    let asked = sentence.trim_end().ends_with('?');
    let supposed = [" if ", "what if", " would ", " suppose"]
        .iter()
        .any(|w| sentence[..flag_at].contains(w));
    let earlier_flag = FLAG_VERBS.iter().any(|v| lower[..start].contains(v));
    if asked && supposed && earlier_flag {
        &lower[..start]
    } else {
        lower
    }
}

/// The text from the start of the sentence that names the last flag.
fn last_flag_sentence(lower: &str) -> &str {
    let last = FLAG_VERBS
        .iter()
        .filter_map(|v| lower.rfind(v))
        .max()
        .unwrap_or(0);
    let start = lower[..last]
        .rfind(['.', '?', '!', ';', '\n'])
        .map_or(0, |i| i + 1);
    &lower[start..]
}

/// "Player B lost on time", "player A's flag fell": the lettered player whose flag fell.
fn lettered_flag(lower: &str) -> Option<Party> {
    [("player a", Party::PlayerA), ("player b", Party::PlayerB)]
        .into_iter()
        .find(|(name, _)| {
            lower.match_indices(name).any(|(i, _)| {
                let after = lower[i + name.len()..].trim_start_matches("'s");
                let next: String = after.chars().take(24).collect();
                FLAG_VERBS.iter().any(|v| next.contains(v))
            })
        })
        .map(|(_, p)| p)
}

/// "If you run out of time", "your flag falls": the generic "you" of a rules question is the
/// asker (the position rulings' reader knows only "I" and "my").
fn generic_you(lower: &str) -> Option<Party> {
    const YOU_FLAG: &[&str] = &[
        "you run out of time",
        "you ran out of time",
        "you flag",
        "your flag",
        "your time runs out",
        "your time ran out",
        "you lose on time",
        "you time out",
    ];
    YOU_FLAG
        .iter()
        .any(|p| lower.contains(p))
        .then_some(Party::Asker)
}

/// "king and rook", "king, two knights and pawns".
fn army_words(a: &Army) -> String {
    let mut parts = vec!["king".to_string()];
    for (n, one, many) in [
        (a.queens, "queen", "queens"),
        (a.rooks, "rook", "rooks"),
        (a.bishops, "bishop", "bishops"),
        (a.knights, "knight", "knights"),
        (a.pawns, "pawn", "pawns"),
    ] {
        match n {
            0 => {}
            1 => parts.push(one.to_string()),
            2 => parts.push(format!("two {many}")),
            _ => parts.push(many.to_string()),
        }
    }
    match parts.len() {
        1 => "bare king".to_string(),
        _ => {
            let last = parts.pop().unwrap_or_default();
            format!("{} and {last}", parts.join(", "))
        }
    }
}

/// `owner` said in the terms of `wanted` (asker/opponent or colours), when the question
/// links the two ("I was Black").
fn in_terms_of(owner: Party, wanted: Party, asker_colour: Option<Party>) -> Option<Party> {
    match (owner.terms(), wanted.terms()) {
        (a, b) if a == b => return Some(owner),
        (Terms::Relative, Terms::Colours) | (Terms::Colours, Terms::Relative) => {}
        _ => return None,
    }
    let asker = asker_colour?;
    Some(match owner {
        Party::Asker => asker,
        Party::Opponent => asker.other(),
        colour if colour == asker => Party::Asker,
        _ => Party::Opponent,
    })
}

/// Every army the question describes, with where it is said and its owner; "K+R vs K+N"
/// after an owner gives the second army to the other player, "both have" to both.
fn armies(lower: &str) -> Vec<(usize, Party, Army)> {
    let anchors = [
        (Some(Party::Asker), ASKER_HOLDS),
        (Some(Party::Asker), YOU_HOLD),
        (Some(Party::Opponent), OPPONENT_HOLDS),
        (Some(Party::White), WHITE_HOLDS),
        (Some(Party::Black), BLACK_HOLDS),
        (Some(Party::PlayerA), PLAYER_A_HOLDS),
        (Some(Party::PlayerB), PLAYER_B_HOLDS),
        (None, BOTH_HOLD),
    ];
    let mut out = Vec::new();
    for (owner, words) in anchors {
        for anchor in words {
            let a = anchor.trim_end();
            let possessive = !a.contains(' ') || a.ends_with(" my") || a.ends_with("'s");
            for (i, _) in lower.match_indices(anchor) {
                if i > 0 && lower.as_bytes()[i - 1].is_ascii_alphabetic() {
                    continue;
                }
                // "We both had kings and bishops": a king and a bishop each.
                let text = &lower[i + anchor.len()..];
                // "my opponent's king and queen" is no army of mine.
                if owner == Some(Party::Asker) && text.starts_with("opponent") {
                    continue;
                }
                let said = if owner.is_none() {
                    army_each(text)
                } else {
                    army_read(text, 2, own_possessives(owner))
                };
                let Some(said) = said else {
                    continue;
                };
                let second = versus(said.rest);
                // "my king can't move" names a piece, not an army.
                if possessive && !said.whole && second.is_none() {
                    continue;
                }
                let owners: &[Party] = match owner {
                    Some(p) => &[p],
                    None => EVERY_PARTY,
                };
                for p in owners {
                    out.push((i, *p, said.army));
                }
                if let (Some(p), Some(second)) = (owner, second) {
                    out.push((i, p.other(), second.army));
                }
            }
        }
    }
    out.extend(equal_matchups(lower));
    out
}

/// "It came down to king and knight versus king and knight": a matchup named without owners
/// is both players' army when its two sides are the same army (when they differ, whose is
/// whose is not said).
fn equal_matchups(lower: &str) -> Vec<(usize, Party, Army)> {
    const MATCHUP: &[&str] = &[
        "down to ",
        "ending of ",
        "endgame of ",
        "ended up with ",
        "in a ",
        "in an ",
    ];
    let mut out = Vec::new();
    for anchor in MATCHUP {
        for (i, _) in lower.match_indices(anchor) {
            let Some(first) = army_at(&lower[i + anchor.len()..]) else {
                continue;
            };
            let Some(second) = versus(first.rest) else {
                continue;
            };
            if first.army == second.army {
                out.extend(EVERY_PARTY.iter().map(|p| (i, *p, first.army)));
            }
        }
    }
    out
}

/// An army named in the text, and what follows it.
struct Said<'a> {
    army: Army,
    /// Said to be the whole army ("bare king", "only…", "…left").
    whole: bool,
    rest: &'a str,
}

/// The army after "vs", "v", "versus" or "against".
fn versus(text: &str) -> Option<Said<'_>> {
    let t = text.trim_start();
    let rest = ["vs. ", "vs ", "v ", "versus ", "against "]
        .iter()
        .find_map(|w| t.strip_prefix(w))?;
    army_at(rest)
}

/// The army named at the start of `text` ("a king and two knights", "only his king", "king
/// rook"), and the text after it.
fn army_at(text: &str) -> Option<Said<'_>> {
    army_read(text, 2, None)
}

/// [`army_at`] for an army both players hold: a plural without a number is one each.
fn army_each(text: &str) -> Option<Said<'_>> {
    army_read(text, 1, None)
}

/// Words that say whose a piece is ("his rook", "my king"): filler inside an army, unless they
/// name another owner than its own (see [`own_possessives`]).
const POSSESSIVES: &[&str] = &[
    "my",
    "your",
    "his",
    "her",
    "their",
    "opponent's",
    "black's",
    "white's",
];

/// The possessives an owner's own pieces may carry ("my king and my rook"): after the first
/// piece, any other one starts somebody else's army ("my king with his rook"). `None` when the
/// owner is not the asker or the opponent.
fn own_possessives(owner: Option<Party>) -> Option<&'static [&'static str]> {
    match owner {
        Some(Party::Asker) => Some(&["my", "your"]),
        Some(Party::Opponent) => Some(&["his", "her", "their", "opponent's"]),
        _ => None,
    }
}

/// An army described at the start of `text`; a plural without a number counts `plural_count`;
/// `own`: the possessives its owner's pieces may carry, when known.
fn army_read<'t>(text: &'t str, plural_count: u8, own: Option<&[&str]>) -> Option<Said<'t>> {
    const FILLER: &[&str] = &[
        "a", "an", "the", "and", "plus", "&", "+", "with", "still", "of",
        // "king and h pawn", "a passed pawn": a file or a kind of pawn names no other piece.
        "b", "c", "d", "e", "f", "g", "h", "passed",
        // "his king and a black pawn": the colour of a man already owned.
        "black", "white",
    ];
    const WHOLE: &[&str] = &["only", "just", "bare", "lone", "naked", "left", "alone"];
    let mut army = Army::bare();
    let mut king = false;
    let mut whole = false;
    let mut count: Option<u8> = None;
    let mut end = 0;
    for (start, word) in words_with_offsets(text) {
        let w = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '+' && c != '&');
        let w = without_file_prefix(w);
        let started = king || !army.is_bare();
        if started && POSSESSIVES.contains(&w) && own.is_some_and(|own| !own.contains(&w)) {
            break;
        }
        if let Some(n) = number(w) {
            count = Some(n);
        } else if let Some(kind) = piece_word(w) {
            let plural = w.ends_with('s') && !w.ends_with("'s");
            let n = count
                .take()
                .unwrap_or(if plural { plural_count } else { 1 });
            add(&mut army, kind, n, &mut king);
        } else if let Some(kinds) = piece_letters(w) {
            for kind in kinds {
                add(&mut army, kind, 1, &mut king);
            }
        } else if WHOLE.contains(&w) {
            whole = true;
        } else if !FILLER.contains(&w) && !POSSESSIVES.contains(&w) {
            break;
        }
        end = start + word.len();
        if word.ends_with(['.', ';', '?', '!']) {
            break;
        }
    }
    (king || !army.is_bare()).then_some(Said {
        army,
        whole: whole || king && !army.is_bare(),
        rest: &text[end..],
    })
}

/// "h-pawn" as "pawn": the file a pawn stands on is no piece of its own.
fn without_file_prefix(word: &str) -> &str {
    match word.as_bytes() {
        [b'a'..=b'h', b'-', rest @ ..] if rest.starts_with(b"pawn") => &word[2..],
        _ => word,
    }
}

/// "knvkq" (KNvKQ, as engine and endgame-table people write it) as "kn v kq".
fn glued_matchups_split(lower: &str) -> std::borrow::Cow<'_, str> {
    static GLUED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\bk([qrbnp]{0,4})vs?(k[qrbnp]{0,4})\b").expect("matchup pattern")
    });
    GLUED.replace_all(lower, "k$1 v $2")
}

fn add(army: &mut Army, kind: PieceKind, n: u8, king: &mut bool) {
    match kind {
        PieceKind::King => *king = true,
        PieceKind::Queen => army.queens += n,
        PieceKind::Rook => army.rooks += n,
        PieceKind::Bishop => army.bishops += n,
        PieceKind::Knight => army.knights += n,
        PieceKind::Pawn => army.pawns += n,
    }
}

/// How many of a piece an army word counts: one to four in digits or words, "single" and
/// "both", or a vague "some", "a few", "a couple" read as two.
fn number(w: &str) -> Option<u8> {
    match w {
        "single" => Some(1),
        "both" | "some" | "several" | "few" | "number" | "couple" | "many" => Some(2),
        _ => crate::text::number(w)
            .filter(|n| (1..=4).contains(n))
            .map(|n| n as u8),
    }
}

fn words_with_offsets(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_inclusive(char::is_whitespace)
        .scan(0, |at, w| {
            let start = *at;
            *at += w.len();
            Some((start, w.trim_end()))
        })
        .filter(|(_, w)| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::frame::spell_out_pieces;

    fn read(q: &str) -> Option<ResultByMaterial> {
        ResultByMaterial::read(&Frame::read(&spell_out_pieces(q)))
    }

    #[test]
    fn a_closing_question_about_flags_in_general_leaves_the_owner_to_the_story() {
        assert_verdict(
            "I had rook and king, he had just his king. My flag fell. Isn't a flag a flag?",
            Party::Asker,
            "It is a draw",
        );
        assert_verdict(
            "I had rook and king, he had just his king. My flag fell. He claimed a win on time, the arbiter gave a draw. Not complaining but he is. Isn't a flag a flag?",
            Party::Asker,
            "It is a draw",
        );
    }

    #[test]
    fn a_pronoun_flag_in_a_story_of_colours_is_its_sentence_subjects() {
        assert_verdict(
            "Black takes White's queen with ...Qxd1, then points out that her own flag has fallen. White has a bare king. Is it a draw?",
            Party::Black,
            "It is a draw",
        );
    }

    #[test]
    fn trying_to_win_on_time_is_no_flag() {
        assert!(read("My rook against his rook and knight, 7 seconds left. I stopped the clock to claim a draw because he was trying to win on time. Will the arbiter accept?").is_none());
        assert!(read("My rook against his rook and knight. He won on time. Fair?").is_some());
    }

    #[test]
    fn a_story_that_ends_the_game_on_the_board_is_left_to_the_rulings() {
        assert!(read("I had king and pawn, he had king and queen, and he played a queen move that stalemated me. Then I saw his flag had fallen. Should I have won?").is_none());
        assert!(
            read("I had king and pawn, he had king and queen. His flag fell. Should I have won?")
                .is_some()
        );
    }

    /// Reads `q` and checks whose flag fell and how the verdict opens.
    fn assert_verdict(q: &str, flagged: Party, lead: &str) {
        let f = read(q).expect("read");
        assert_eq!(f.defender, flagged, "{q}");
        let text = f.paragraph();
        assert!(text.starts_with(lead), "{q}: {text}");
    }

    #[test]
    fn colours_and_armies_are_read() {
        let f = read("White flag falls. White has K and R and black has K and N. Result?")
            .expect("read");
        assert_eq!(f.defender, Party::White);
        assert_eq!(f.mater.knights, 1);
        assert!(
            f.paragraph().starts_with("Black wins:"),
            "{}",
            f.paragraph()
        );
    }

    #[test]
    fn armies_said_for_me_and_for_him_are_read() {
        assert_verdict(
            "It was king and two knights for me against a bare king for him when his time ran out. Result?",
            Party::Opponent,
            "You win:",
        );
        assert_verdict(
            "We were down to king and rook for him against a lone king for me, and my flag fell. Do I lose?",
            Party::Asker,
            "Your opponent wins:",
        );
    }

    #[test]
    fn a_piece_of_the_other_player_ends_an_army() {
        assert_verdict(
            "In blitz I had only my king left and claimed his flag, while he took my king with his rook. Who wins?",
            Party::Opponent,
            "It is a draw:",
        );
    }

    #[test]
    fn armies_after_a_colon_or_a_possessive_are_read() {
        assert_verdict(
            "White has king and knight against Black's king and knight and Black's flag falls. Who wins?",
            Party::Black,
            "White wins:",
        );
        assert_verdict(
            "Me: knight and king, 1 minute left; opponent: knight and king. I run out of time. Do I lose?",
            Party::Asker,
            "Your opponent wins:",
        );
    }

    #[test]
    fn a_colour_in_brackets_does_not_hide_the_army() {
        assert_verdict(
            "I (black) timed out with two pawns and a king, the opponent (white) has a bishop and a king. Is this not supposed to be a draw?",
            Party::Asker,
            "Your opponent wins:",
        );
    }

    #[test]
    fn glued_matchups_are_read() {
        assert_verdict(
            "I have KNvKQ and my opponent times out. Draw?",
            Party::Opponent,
            "It is a draw:",
        );
    }

    #[test]
    fn armies_in_piece_letters_are_read() {
        assert_verdict(
            "In an armageddon game black flagged in a KN v KN endgame. Who is right?",
            Party::Black,
            "White wins:",
        );
        assert_verdict(
            "Black flagged with king and knight against king and knight. Does White win?",
            Party::Black,
            "White wins:",
        );
        assert_verdict(
            "White has K+R, Black has K. Black's flag falls. Result?",
            Party::Black,
            "White wins:",
        );
    }

    #[test]
    fn the_army_a_flagging_player_ran_out_with_is_his() {
        assert_verdict(
            "I ran out of time with king and two pawns against king and bishop. Draw?",
            Party::Asker,
            "Your opponent wins:",
        );
        assert_verdict(
            "He flagged with king and rook against king and knight. Who wins?",
            Party::Opponent,
            "You win:",
        );
    }

    #[test]
    fn armageddon_keeps_the_flag_rule_and_names_the_draw_odds() {
        let f = read("Armageddon: White has king and knight, Black has king and knight, and Black's flag falls. Who wins?")
            .expect("read");
        let text = f.paragraph();
        assert!(text.starts_with("White wins:"), "{text}");
        assert!(text.contains("win for Black (10.1)"), "{text}");
    }

    #[test]
    fn the_asker_with_a_minor_piece_and_an_unknown_opponent() {
        let f = read("What if I have king and bishop when his flag drops?").expect("read");
        assert_eq!(f.defender, Party::Opponent);
        assert!(f.defender_army.is_none());
        assert!(
            f.paragraph()
                .starts_with("It depends on what your opponent still has")
        );
    }

    #[test]
    fn the_opponent_only_had_a_minor_piece_when_the_asker_lost_on_time() {
        let f = read(
            "I lost on time even though my opponent only had a King and Knight. Is that right?",
        )
        .expect("read");
        assert_eq!(f.defender, Party::Asker);
        assert!(f.defender_army.is_none());
        let text = f.paragraph();
        assert!(
            text.starts_with("It depends on what you still have"),
            "{text}"
        );
    }

    #[test]
    fn a_bare_king_and_bishop_against_bishop() {
        let f = read("My flag fell. I had king and rook against his bare king.").expect("read");
        assert!(
            f.paragraph().starts_with("It is a draw:"),
            "{}",
            f.paragraph()
        );
        let f = read("Both players have a king and a bishop and White's flag falls. Win or draw?")
            .expect("read");
        assert!(f.paragraph().starts_with("It depends on the bishops"));
        let f =
            read("I flagged. He had king and two knights, I had a king. Do I lose?").expect("read");
        assert!(
            f.paragraph().starts_with("Your opponent wins"),
            "{}",
            f.paragraph()
        );
    }

    #[test]
    fn the_same_army_on_both_sides_of_an_unowned_matchup() {
        let q = "In an Armageddon game it came down to king and knight versus king and knight, and Black's time ran out. Draw or a win for White?";
        let f = read(q).expect("read");
        assert_eq!(f.defender, Party::Black);
        let text = f.paragraph();
        assert!(text.starts_with("White wins"), "{text}");
        // Different armies without owners say nothing of whose is whose.
        assert!(
            read("It came down to king and rook versus king and knight, and the flag fell.")
                .is_none()
        );
    }

    #[test]
    fn bishops_said_to_run_on_one_colour_or_both() {
        assert_verdict(
            "We both had only kings and bishops on the same colour and my flag fell. Who won?",
            Party::Asker,
            "It is a draw: with every bishop on squares of one colour",
        );
        assert_verdict(
            "We both had only kings and bishops, on opposite colours, and my flag fell. Who won?",
            Party::Asker,
            "Your opponent wins",
        );
        assert_verdict(
            "We both had only kings and bishops and my flag fell. Who won?",
            Party::Asker,
            "It depends on the bishops",
        );
    }

    #[test]
    fn bishops_named_by_their_squares_tell_the_colours() {
        assert_verdict(
            "I had king and light-squared bishop, he had king and light-squared bishop. My flag fell. Result?",
            Party::Asker,
            "It is a draw: with every bishop on squares of one colour",
        );
        assert_verdict(
            "I had king and dark-squared bishop, he had king and light-squared bishop. My flag fell. Result?",
            Party::Asker,
            "Your opponent wins",
        );
    }

    #[test]
    fn an_army_told_after_the_flag_is_the_flaggers() {
        assert_verdict(
            "Flagged in a 3+0 blitz with K+P vs his K+N. Arbiter gave him the win but a lone knight cant mate?? was i robbed",
            Party::Asker,
            "Your opponent wins",
        );
        assert_verdict(
            "I lost on time in round 5 with king and rook against his bare king. Is that right?",
            Party::Asker,
            "It is a draw",
        );
    }

    #[test]
    fn a_flag_supposed_for_anybody_is_no_flag_fall() {
        assert!(read("He traded into king and bishop against my bare king. I said it is an automatic draw; he says we have to keep playing until somebody claims or runs out of time. Who is right?").is_none());
        // A flag only aimed at.
        assert!(read("My player has 40 seconds left in a R vs R ending and his opponent is just trying to flag him. Can he claim a draw under III.5?").is_none());
        assert!(
            read("I had king and bishop, he had a bare king, and my flag fell. Who wins?")
                .is_some()
        );
        assert!(read("I had king and knight, he had king, knight and pawn. Somebody said if his flag had fallen I would have won. Who is right?").is_some());
        // A flag only foreseen.
        assert!(read("He had king and rook against my lone king with 2 seconds left, said 'I resign' and stopped the clock because he thought he'd flag anyway. Is that a win for me?").is_none());
    }

    #[test]
    fn the_flag_that_fell_is_judged_before_a_supposed_one() {
        assert_verdict(
            "Rapid 15+10. I've got K+N, my opponent has K + one pawn on the h-file. His flag fell, I stopped the clock and claimed. The arbiter gave me the win. Was that correct? And would it have been the same if it was MY flag that fell?",
            Party::Opponent,
            "You win",
        );
        // A supposed flag alone is the one asked about.
        assert_verdict(
            "I have K+N, my opponent has K and a pawn. What if my flag falls?",
            Party::Asker,
            "Your opponent wins",
        );
    }

    #[test]
    fn a_pawn_named_by_its_file_is_a_pawn() {
        for q in [
            "rapid 15+0, my flag fell. i had king and h pawn, he had king and knight. draw??",
            "My flag fell with king and h-pawn against king and knight. Draw?",
        ] {
            assert_verdict(q, Party::Asker, "Your opponent wins");
        }
    }

    #[test]
    fn an_army_after_a_verbless_owner_or_with_its_colour_is_read() {
        assert_verdict(
            "I had K + dark-squared bishop, my opponent K + light-squared bishop, and his flag fell. Who wins?",
            Party::Opponent,
            "You win",
        );
        assert_verdict(
            "I had king and queen against his king and a black pawn on h3, and my flag fell. Who wins?",
            Party::Asker,
            "Your opponent wins",
        );
    }

    #[test]
    fn a_question_about_the_arbiters_call_is_left_to_the_rulings() {
        assert!(read("I had K+R+P against K+R and my flag fell. The arbiter standing by the board stopped the clock and declared I lost. I thought only the opponent can claim a flag. Was this allowed?").is_none());
        assert!(
            read(
                "I had K+R+P against K+R and my flag fell. The arbiter declared I lost. Who wins?"
            )
            .is_some()
        );
    }

    #[test]
    fn a_resignation_is_judged_by_the_material_as_a_flag_is() {
        let told = |q: &str| read(q).expect("read").paragraph();
        let stands = told(
            "My opponent resigned when he had king and queen against my king and rook. Is the resignation valid, he clearly was winning?",
        );
        assert!(
            stands.starts_with(
                "You win: your opponent resigned, and your king and rook could still checkmate"
            ),
            "{stands}"
        );
        assert!(stands.contains("(5.1.2)"), "{stands}");
        let drawn = told("I resigned with a queen against his lone knight. Is it a loss?");
        assert!(
            drawn.starts_with(
                "It is a draw: you resigned, but your opponent's king and knight cannot checkmate"
            ),
            "{drawn}"
        );
        let son = told(
            "My son resigned with king and knight against king and rook. Is that a loss for him?",
        );
        assert!(
            son.starts_with("His opponent wins: your son resigned"),
            "{son}"
        );
        // "Resignation" names nobody who resigned.
        assert!(
            read("Is a resignation valid when he had king and queen against my king and rook?")
                .is_none()
        );
    }

    #[test]
    fn a_game_named_fide_is_judged_by_the_laws_whatever_it_is_compared_with() {
        assert_verdict(
            "FIDE rated rapid. I had king + a-pawn, my opponent had king + knight. My flag fell and the arbiter gave him the win. A guy at my club says under USCF it would be a draw. Was the arbiter wrong?",
            Party::Asker,
            "Your opponent wins",
        );
        assert!(read("Under USCF rules, I had king + pawn, my opponent had king + knight, and my flag fell. Draw?").is_none());
    }

    #[test]
    fn a_second_illegal_move_is_judged_by_the_material_as_a_flag_is() {
        let told = |q: &str| read(q).expect("read").paragraph();
        let blitz = told(
            "Blitz 3+2, not one arbiter per game. Earlier Black made an illegal move and White got 1 minute. Now Black again plays an illegal move and presses the clock. Black has king, rook and pawn, White has king and bishop. What's the decision?",
        );
        assert!(
            blitz.starts_with("White wins: Black completed a second illegal move, which loses the game, and White's king and bishop could still checkmate"),
            "{blitz}"
        );
        assert!(blitz.contains("(A.5.2)"), "{blitz}");
        let bare = told(
            "My opponent made his second illegal move, but I only have a king left. Do I win?",
        );
        assert!(
            bare.starts_with("It is a draw: your opponent completed a second illegal move"),
            "{bare}"
        );
        // Whether an unpressed move counts is for the rulings.
        assert!(read("My opponent says my move was my second illegal move, but I had not pressed the clock. I have a rook, he has a queen. Have I lost?").is_none());
    }

    #[test]
    fn a_quickplay_claim_before_the_flag_is_left_to_the_rulings() {
        assert!(read("Standard game, no increment. With under two minutes left I had rook and bishop against his rook and claimed a draw under III.5 because he was just shuffling. The arbiter waited, then my flag fell and he gave a draw. Who is right?").is_none());
        assert!(
            read("I had rook and bishop against his rook and my flag fell. Who wins?").is_some()
        );
    }

    #[test]
    fn a_story_told_of_somebody_else_is_read_for_him_or_her() {
        let told = |q: &str| read(q).expect("read").paragraph();
        let his = told(
            "His flag fell. He only had king, bishop and pawn, his opponent only a knight. What is the result?",
        );
        assert!(
            his.starts_with("His opponent wins: his flag fell, and his opponent's king and knight could still checkmate"),
            "{his}"
        );
        assert!(his.contains("so he has lost on time"), "{his}");
        assert!(
            told("She ran out of time. Her opponent only had a bare king. Draw?")
                .starts_with("It is a draw: her flag fell, but her opponent's bare king")
        );
        // A story with the asker in it keeps "he" for the asker's opponent.
        assert_verdict(
            "His flag fell. I only had king and knight, his opponent... I mean he had a rook.",
            Party::Opponent,
            "You win",
        );
    }

    #[test]
    fn a_parents_story_is_read_for_the_child() {
        assert_verdict(
            "My son had king and light-squared bishop, and the other boy had king and light-squared bishop, no pawns left. The other boy's clock ran out. Who wins?",
            Party::Opponent,
            "It is a draw",
        );
        assert_verdict(
            "My daughter had a knight and king, her opponent had a lone king, and her flag fell. Who wins?",
            Party::Asker,
            "It is a draw: her flag fell, but her opponent's bare king",
        );
        assert_verdict(
            "My son had a rook and king against a king and knight. His flag fell. Who wins?",
            Party::Asker,
            "His opponent wins",
        );
        // Answered about the child, the note to the asker kept.
        let told = |q: &str| read(q).expect("read").paragraph();
        assert!(
            told("My son had a rook and king against a bare king and his opponent's flag fell. Does my son win?")
                .starts_with("Your son wins: his opponent's flag fell, and his king and rook")
        );
        let daughter = told(
            "My daughter's flag fell in blitz. She had king and knight, her opponent had king and rook. Is it a draw?",
        );
        assert!(
            daughter.starts_with("Her opponent wins: her flag fell, and her opponent's king and rook could still checkmate"),
            "{daughter}"
        );
        assert!(
            daughter.contains("so your daughter has lost on time"),
            "{daughter}"
        );
        assert!(
            daughter.contains("give it as FEN or PGN and I will check"),
            "{daughter}"
        );
    }

    #[test]
    fn several_bishops_of_one_colour_never_mate() {
        assert_verdict(
            "I have two bishops on the same colour against his bare king and his flag fell. Do I win?",
            Party::Opponent,
            "It is a draw: with every bishop on squares of one colour",
        );
        assert_verdict(
            "I have two light-squared bishops against his bare king and his flag fell. Do I win?",
            Party::Opponent,
            "It is a draw: with every bishop on squares of one colour",
        );
        // A pawn of the flagged side can hem its own king in: a mate exists.
        assert_verdict(
            "He had king and two bishops on the same colour, I had king and pawn, and my flag fell. Who wins?",
            Party::Asker,
            "Your opponent wins",
        );
        assert_verdict(
            "I have two bishops against his bare king and his flag fell. Do I win?",
            Party::Opponent,
            "You win",
        );
    }

    #[test]
    fn a_last_man_taken_in_the_story_is_gone() {
        assert_verdict(
            "Opponent was very low on time, he has a King and Queen, I have a King and several pawns. On the move where he took my last pawn I noticed he had flagged. Who wins?",
            Party::Opponent,
            "It is a draw",
        );
    }

    #[test]
    fn numbered_players_are_read_and_named_as_written() {
        let q = "Player 1 had a king, a pawn, and a promoted queen, and Player 2 had a king and a bishop. Player 1's flag fell. Who wins?";
        let f = read(q).expect("read");
        assert_eq!(f.defender, Party::PlayerA);
        assert!(
            f.paragraph().starts_with("Player 2 wins"),
            "{}",
            f.paragraph()
        );
    }

    #[test]
    fn a_flag_called_by_someone_is_the_other_players() {
        assert_verdict(
            "I had a king and queen vs. a king with very little time left. My opponent called, 'Flag!' when I was getting close to mating him. What is the result?",
            Party::Asker,
            "It is a draw",
        );
        // A possessive names the owner.
        assert_verdict(
            "He called my flag. I had king and queen against his bare king. Result?",
            Party::Asker,
            "It is a draw",
        );
    }

    #[test]
    fn the_flag_that_fell_is_read_after_the_rule_recalled() {
        let q = "I'm pretty sure that if your opponent runs out of time in blitz, but you don't have mating material, the game is a draw. Today, however, I lost on time even though my opponent only had a King and Knight.";
        let f = read(q).expect("read");
        assert_eq!(f.defender, Party::Asker);
        assert!(
            f.paragraph()
                .starts_with("It depends on what you still have"),
            "{}",
            f.paragraph()
        );
    }

    #[test]
    fn winning_on_time_names_the_other_flag() {
        assert_verdict(
            "I have a rook and king vs king and my opponent has 3 seconds, can I win on time?",
            Party::Opponent,
            "You win",
        );
        assert_verdict(
            "I only have a knight and my opponent has a rook and pawns. Can he win on time?",
            Party::Asker,
            "Your opponent wins",
        );
    }

    #[test]
    fn the_generic_you_is_the_asker() {
        let f = read("What happens if you run out of time but your opponent only has a king?")
            .expect("read");
        assert_eq!(f.defender, Party::Asker);
        assert!(
            f.paragraph().starts_with("It is a draw: your flag fell"),
            "{}",
            f.paragraph()
        );
    }

    #[test]
    fn lettered_players() {
        let f = read("Player A had a King and a Knight. Player B had a King, a Bishop and a number of pawns. Player B lost on time. What was the result?").expect("read");
        assert_eq!(f.defender, Party::PlayerB);
        assert!(
            f.paragraph()
                .starts_with("Player A wins: Player B's flag fell"),
            "{}",
            f.paragraph()
        );
    }

    #[test]
    fn other_rules_and_both_flags_are_left_to_the_rulings() {
        assert!(read("On lichess his flag fell and I had only a knight").is_none());
        assert!(read("Both flags fell; I had a rook, he had a king").is_none());
        assert!(read("My flag fell. Do I lose?").is_none());
    }
}
