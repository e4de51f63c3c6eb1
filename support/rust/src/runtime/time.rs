// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! Time as the loop reads it: RFC 3339 date-times (a request's `expiresAt`) and the
//! host's clock, both as microseconds since the Unix epoch, as the Python package compares
//! them (its datetimes hold microseconds).

use std::time::{SystemTime, UNIX_EPOCH};

/// Microseconds since the Unix epoch (negative before it).
pub(crate) fn micros(time: SystemTime) -> i128 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i128::try_from(after.as_micros()).unwrap_or(i128::MAX),
        Err(before) => -i128::try_from(before.duration().as_micros()).unwrap_or(i128::MAX),
    }
}

/// Milliseconds since the Unix epoch, rounded down as the Python package does
/// (`int(timestamp * 1000)` of a time after the epoch).
pub(crate) fn millis(time: SystemTime) -> i128 {
    micros(time).div_euclid(1000)
}

/// An RFC 3339 date-time (`2026-01-01T00:00:00Z`, `2026-01-01t09:30:00.25+02:00`) as
/// microseconds since the epoch, or `None` for anything else: a text of another form, or
/// a date or time that does not exist (February 30, hour 24, second 60, an offset of a
/// day or more). Digits of a fraction beyond the sixth are dropped.
pub(crate) fn parse_time(text: &str) -> Option<i128> {
    let b = text.as_bytes();
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    let year = digits(b, 0, 4)?;
    let month = digits(b, 5, 2)?;
    let day = digits(b, 8, 2)?;
    let hour = digits(b, 11, 2)?;
    let minute = digits(b, 14, 2)?;
    let second = digits(b, 17, 2)?;
    if !(at(4, b'-')
        && at(7, b'-')
        && (at(10, b'T') || at(10, b't'))
        && at(13, b':')
        && at(16, b':'))
    {
        return None;
    }
    let (fraction, i) = fraction(b, 19)?;
    let offset_minutes = offset_minutes(b, i)?;
    let days_in_month = days_in_month(year, month)?;
    if year < 1 || !(1..=days_in_month).contains(&day) || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let seconds = days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
        - offset_minutes * 60;
    Some(i128::from(seconds) * 1_000_000 + i128::from(fraction))
}

/// The `n` ASCII digits of `b` from `from`, as a number; `None` when they are not all there.
fn digits(b: &[u8], from: usize, n: usize) -> Option<i64> {
    let part = b.get(from..from + n)?;
    if !part.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(part.iter().fold(0, |acc, d| acc * 10 + i64::from(d - b'0')))
}

/// The fraction of a second that starts at `i` of `b` (a `.` and digits, or none), in
/// microseconds, and where it ends; `None` for a `.` without a digit.
fn fraction(b: &[u8], i: usize) -> Option<(i64, usize)> {
    if b.get(i) != Some(&b'.') {
        return Some((0, i));
    }
    let start = i + 1;
    let mut end = start;
    while b.get(end).is_some_and(u8::is_ascii_digit) {
        end += 1;
    }
    if end == start {
        return None;
    }
    let kept = &b[start..end.min(start + 6)];
    let mut fraction = kept.iter().fold(0, |acc, d| acc * 10 + i64::from(d - b'0'));
    fraction *= 10i64.pow(u32::try_from(6 - kept.len()).unwrap_or(0));
    Some((fraction, end))
}

/// The offset from UTC, in minutes, that ends `b` at `i` (`Z`, or `+hh:mm` / `-hh:mm` under
/// a day); `None` for anything else.
fn offset_minutes(b: &[u8], i: usize) -> Option<i64> {
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    let offset_minutes = match b.get(i) {
        Some(b'Z' | b'z') if i + 1 == b.len() => 0,
        Some(&sign @ (b'+' | b'-')) if i + 6 == b.len() && at(i + 3, b':') => {
            let minutes = digits(b, i + 1, 2)? * 60 + digits(b, i + 4, 2)?;
            if minutes >= 24 * 60 {
                return None;
            }
            if sign == b'-' { -minutes } else { minutes }
        }
        _ => return None,
    };
    Some(offset_minutes)
}

/// The days of `month` (1 to 12) in `year` of the proleptic Gregorian calendar.
fn days_in_month(year: i64, month: i64) -> Option<i64> {
    Some(match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => return None,
    })
}

/// The days from 1970-01-01 to the proleptic Gregorian date `year-month-day`.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let shifted_month = (month + 9) % 12;
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(feature = "tokio")]
/// `seconds` as Python's `format(seconds, "g")` writes it: six significant digits, without
/// trailing zeros, in exponent form below 1e-4 and from 1e6 (`5`, `0.05`, `1.5e-05`).
pub(crate) fn format_g(seconds: f64) -> String {
    if seconds == 0.0 {
        return if seconds.is_sign_negative() {
            "-0"
        } else {
            "0"
        }
        .to_owned();
    }
    if !seconds.is_finite() {
        return if seconds.is_nan() {
            "nan".to_owned()
        } else if seconds > 0.0 {
            "inf".to_owned()
        } else {
            "-inf".to_owned()
        };
    }
    // The exponent after rounding to six significant digits.
    let scientific = format!("{seconds:.5e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..6).contains(&exponent) {
        let mantissa = trim_zeros(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exponent.abs());
    }
    let decimals = usize::try_from(5 - exponent).unwrap_or(0);
    trim_zeros(&format!("{seconds:.decimals$}")).to_owned()
}

#[cfg(feature = "tokio")]
fn trim_zeros(number: &str) -> &str {
    if number.contains('.') {
        number.trim_end_matches('0').trim_end_matches('.')
    } else {
        number
    }
}

/// `micros` since the epoch as RFC 3339 in UTC, as Python's `datetime.isoformat` writes
/// an aware time in UTC: `2026-01-01T00:00:00+00:00`, `…:00.250000+00:00`.
pub(crate) fn format_time(micros: i128) -> String {
    let seconds = micros.div_euclid(1_000_000);
    let fraction = micros.rem_euclid(1_000_000);
    let days = seconds.div_euclid(86_400);
    let of_day = seconds.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i128::from(month <= 2);
    let time = format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    );
    if fraction == 0 {
        format!("{time}+00:00")
    } else {
        format!("{time}.{fraction:06}+00:00")
    }
}

/// `n` random bytes from the operating system, in lowercase hex.
pub(crate) fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).expect("the operating system's random source is readable");
    let mut out = String::with_capacity(2 * n);
    for b in bytes {
        out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        out.push(char::from(b"0123456789abcdef"[usize::from(b & 0x0f)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_3339_times_read_as_python_reads_them() {
        assert_eq!(parse_time("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_time("1970-01-01t00:00:01z"), Some(1_000_000));
        assert_eq!(parse_time("1970-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(parse_time("1970-01-01T00:00:00.5-00:00"), Some(500_000));
        assert_eq!(parse_time("1970-01-01T00:00:00.1234567891Z"), Some(123_456));
        // 2026-01-01 is 20454 days after the epoch.
        assert_eq!(
            parse_time("2026-01-01T00:00:00Z"),
            Some(20_454 * 86_400 * 1_000_000)
        );
        assert!(parse_time("2024-02-29T00:00:00Z").is_some());
        // Python takes an offset's minutes past 59 (`+00:60` is one hour).
        assert_eq!(
            parse_time("1970-01-01T01:00:00+00:60"),
            parse_time("1970-01-01T00:00:00Z")
        );
        for bad in [
            "tomorrow",
            "2026-02-30T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "0000-01-01T00:00:00Z",
            "2026-01-01T24:00:00Z",
            "2026-01-01T23:59:60Z",
            "2026-01-01T00:00:00+24:00",
            "2026-01-01T00:00:00",
            "2026-01-01 00:00:00Z",
            "2026-01-01T00:00:00.Z",
            "2026-01-01T00:00:00Zx",
            "2026-1-01T00:00:00Z",
        ] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn times_are_written_as_python_writes_them_in_utc() {
        assert_eq!(format_time(0), "1970-01-01T00:00:00+00:00");
        let new_year = 20_454 * 86_400 * 1_000_000;
        assert_eq!(format_time(new_year), "2026-01-01T00:00:00+00:00");
        assert_eq!(
            format_time(new_year + 28_800_250_000),
            "2026-01-01T08:00:00.250000+00:00"
        );
        assert_eq!(format_time(-500_000), "1969-12-31T23:59:59.500000+00:00");
        for t in [0, new_year, new_year + 28_800_250_000, -500_000] {
            assert_eq!(parse_time(&format_time(t)), Some(t));
        }
    }

    #[cfg(feature = "tokio")]
    #[test]
    fn seconds_are_written_as_python_formats_g() {
        for (value, text) in [
            (5.0, "5"),
            (0.05, "0.05"),
            (1.5, "1.5"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (2.0 / 3.0, "0.666667"),
            (0.0, "0"),
        ] {
            assert_eq!(format_g(value), text, "{value}");
        }
    }
}
