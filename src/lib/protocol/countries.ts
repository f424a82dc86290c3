import { UK_COUNTRY } from './limits';

/** ISO 3166-1 alpha-2 codes (officially assigned), lower case. */
const ISO_3166_ALPHA2 = new Set(
	(
		'ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bl bm bn bo bq br bs bt bv bw by bz ' +
		'ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg eh er es et fi fj fk fm fo fr ' +
		'ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo ' +
		'jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mf mg mh mk ml mm mn mo mp mq mr ' +
		'ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro ' +
		'rs ru rw sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st sv sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv ' +
		'tw tz ua ug um us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw'
	).split(' ')
);

export type CountryCheck =
	| { ok: true; country: string }
	| { ok: false; reason: 'gb-not-uk' | 'not-iso' | 'not-lower-case'; suggestion?: string };

/**
 * Checks a `country` value against 4.1: `uk` for the United Kingdom, otherwise ISO 3166 alpha-2.
 * `gb` is ISO's code for the United Kingdom, but the interface asks for `uk`.
 */
export function checkCountry(value: string): CountryCheck {
	if (value === UK_COUNTRY) return { ok: true, country: value };
	if (value === 'gb') return { ok: false, reason: 'gb-not-uk', suggestion: UK_COUNTRY };
	const lower = value.toLowerCase();
	if (lower !== value && (lower === UK_COUNTRY || ISO_3166_ALPHA2.has(lower)))
		return { ok: false, reason: 'not-lower-case', suggestion: lower === 'gb' ? UK_COUNTRY : lower };
	if (ISO_3166_ALPHA2.has(value)) return { ok: true, country: value };
	return { ok: false, reason: 'not-iso' };
}
