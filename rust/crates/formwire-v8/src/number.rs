//! JavaScript `Number::toString` (ECMA-262 §6.1.6.1.20), used to turn number property keys into strings.

/// The JS string form of a number: `String(x)` in JavaScript.
pub fn number_to_js_string(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    if x < 0.0 {
        return format!("-{}", number_to_js_string(-x));
    }
    // Shortest round-trip digits from the `{:e}` form: "d.ddde±x".
    let e_form = format!("{x:e}");
    let (mantissa, exp) = e_form.split_once('e').unwrap_or((e_form.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let k = digits.len() as i32;
    let n = exp + 1;
    let mut out = String::new();
    if k <= n && n <= 21 {
        out.push_str(&digits);
        for _ in 0..(n - k) {
            out.push('0');
        }
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        for _ in 0..(-n) {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if n - 1 < 0 { '-' } else { '+' });
        out.push_str(&(n - 1).abs().to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::number_to_js_string as s;

    #[test]
    fn js_number_strings() {
        assert_eq!(s(0.0), "0");
        assert_eq!(s(-0.0), "0");
        assert_eq!(s(1.0), "1");
        assert_eq!(s(-1.0), "-1");
        assert_eq!(s(1.5), "1.5");
        assert_eq!(s(0.1), "0.1");
        assert_eq!(s(123456789.0), "123456789");
        assert_eq!(s(4294967295.0), "4294967295");
        assert_eq!(s(1e21), "1e+21");
        assert_eq!(s(1e20), "100000000000000000000");
        assert_eq!(s(123e20), "1.23e+22");
        assert_eq!(s(1e-6), "0.000001");
        assert_eq!(s(1e-7), "1e-7");
        assert_eq!(s(1.5e-7), "1.5e-7");
        assert_eq!(s(f64::NAN), "NaN");
        assert_eq!(s(f64::INFINITY), "Infinity");
        assert_eq!(s(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(s(5e-324), "5e-324");
        assert_eq!(s(1.7976931348623157e308), "1.7976931348623157e+308");
        assert_eq!(s(0.30000000000000004), "0.30000000000000004");
    }
}
